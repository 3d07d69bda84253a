//! What a room's beats put on the wire, stepped beat by beat through the server's own room on
//! real loopback connections: the first state whole, then only changes; a beat whose only news
//! is the clocks sends nothing but one beat in ten; a move is answered at once.

use std::time::Duration;

use futures_util::StreamExt;
use jengine_kotoba::battle::Move;
use jengine_kotoba::net::{State, ToClient, ToServer};
use jengine_net::{Codec, Connection, ServerConfig};
use kotodama_server::hot::PlayingRoom;
use kotodama_server::{Config, PROTOCOL};
use tokio_tungstenite::tungstenite::Message;

type Client = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

/// Two players' connections: the server's ends (for the room's seats) and the clients' ends.
async fn connections() -> (Vec<Connection<ToClient, ToServer>>, Vec<Client>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let transport = ServerConfig {
        codec: Codec::new(PROTOCOL),
        ..ServerConfig::default()
    };
    let (mut servers, mut clients) = (Vec::new(), Vec::new());
    for _ in 0..2 {
        let client = async {
            let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
            tokio_tungstenite::client_async(format!("ws://{addr}/"), tcp)
                .await
                .unwrap()
                .0
        };
        let server = async {
            let (tcp, _) = listener.accept().await.unwrap();
            Connection::<ToClient, ToServer>::accept(tcp, &transport)
                .await
                .unwrap()
        };
        let (client, server) = tokio::join!(client, server);
        clients.push(client);
        servers.push(server);
    }
    (servers, clients)
}

/// Reads a client's messages up to the first state that answers move `number`, as the
/// kinds they came in (`State` whole, `Delta`, or another message's name).
async fn until_answered(client: &mut Client, number: u32) -> Vec<&'static str> {
    let codec = Codec::new(PROTOCOL);
    let mut kinds = Vec::new();
    let mut state: Option<State> = None;
    loop {
        let Some(Ok(Message::Binary(bytes))) = client.next().await else {
            panic!("the connection ended after {kinds:?}");
        };
        let msg: ToClient = codec.decode(&bytes).unwrap();
        let now = match msg {
            ToClient::State(s) => {
                kinds.push("State");
                s
            }
            ToClient::Delta(d) => {
                kinds.push("Delta");
                d.apply(state.as_ref().expect("a whole state before a change"))
                    .unwrap()
            }
            ToClient::Start(_) => {
                kinds.push("Start");
                continue;
            }
            _ => {
                kinds.push("other");
                continue;
            }
        };
        let acked = now.acked;
        state = Some(now);
        if acked >= number {
            return kinds;
        }
    }
}

#[test]
fn quiet_beats_send_the_clocks_once_in_ten_and_a_move_is_answered_at_once() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (servers, mut clients) = runtime.block_on(connections());
    let _inside = runtime.enter();
    let config = Config {
        // The match's own clock never beats on its own here: the test beats it.
        tick: Duration::from_secs(3_600),
        countdown: false,
        seed: 11,
        ..Config::default()
    };
    let room = PlayingRoom::start(
        config,
        [
            ("あお".to_string(), servers[0].sender()),
            ("あか".to_string(), servers[1].sender()),
        ],
    );
    for _ in 0..30 {
        assert!(room.tick());
    }
    room.play(0, 1, Move::Swap { slot: 0 }).unwrap();
    let kinds = runtime.block_on(until_answered(&mut clients[0], 1));
    let states: Vec<_> = kinds
        .iter()
        .filter(|k| **k == "State" || **k == "Delta")
        .collect();
    // The start's state whole; the clocks at beats 10, 20 and 30; the move's answer.
    assert_eq!(
        states,
        [&"State", &"Delta", &"Delta", &"Delta", &"Delta"],
        "{kinds:?}"
    );
    assert_eq!(kinds[0], "Start");
    // The other seat heard the swap as a change too, at once.
    let other = runtime.block_on(until_answered(&mut clients[1], 0));
    assert_eq!(other[..2], ["Start", "State"]);
}
