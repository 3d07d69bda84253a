//! What the crawl announces: every event a game can answer, each tagged by its `event` name
//! in JSON, with the fields a game needs to show it or apply its own rules.

use crate::map::Facing;
use serde::{Deserialize, Serialize};

/// Something the crawl announces for the game (sound, text, its own rules).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The party arrived on another floor (counting from 0).
    Level {
        /// The floor.
        level: usize,
        /// Its name.
        name: String,
    },
    /// A door was opened.
    Door,
    /// A locked door was opened with a key.
    Unlocked,
    /// A locked door and no key.
    Locked,
    /// A lever was pulled.
    Lever,
    /// A chest was opened, or an item taken from the floor: `what:value`. Gold, keys and
    /// healing are already applied.
    Loot {
        /// The kind (`gold`, `key`, `heal`, or the game's own).
        what: String,
        /// The value as written.
        value: String,
        /// Where it came from: `chest` or `floor`.
        from: String,
    },
    /// A chest that was already emptied.
    Empty,
    /// The party fell through a pit.
    Pit,
    /// A party member hit a monster.
    Hit {
        /// Who swung.
        member: String,
        /// The monster's kind.
        monster: String,
        /// For how much.
        damage: u32,
    },
    /// A monster died.
    Slain {
        /// Its kind.
        monster: String,
    },
    /// A monster bit a party member.
    Bitten {
        /// Its kind.
        monster: String,
        /// Who.
        member: String,
        /// For how much.
        damage: u32,
    },
    /// A step refused: something solid or a monster stands there. No time passes.
    Bumped {
        /// What was in the way: `wall` (rock), `door` (a shut door), `lever` (the wall a lever
        /// is set in) or `monster`. A locked door says `locked` instead.
        what: String,
    },
    /// Use found nothing to use, in front or underfoot. No time passes.
    Nothing,
    /// The party waited a tick.
    Wait,
    /// The party rested.
    Rested,
    /// The whole party is down: the game is lost.
    Dead,
    /// The party took the last stairs down, or won the last floor's goal fight.
    Escaped,
    /// The party took the top floor's stairs up: the game decides what is outside.
    Exit,
    /// A fight began; nothing moves until the game settles it.
    Encounter {
        /// The group, by the game's name.
        group: String,
        /// The level's text for it (empty for a random one).
        text: String,
        /// Its art, if it had any.
        art: Option<String>,
    },
    /// The game settled the fight.
    Resolved {
        /// Whether the party won.
        won: bool,
    },
    /// A trap went off.
    Trap {
        /// Its name from the level's list.
        name: String,
    },
    /// The floor around the party was shown on the automap.
    Revealed {
        /// How far (0: all of it).
        radius: u32,
    },
    /// A secret door was found (it is a shut door now).
    Found {
        /// Its cell.
        x: i32,
        /// Its row.
        y: i32,
    },
    /// A teleporter moved the party (a `level` event comes too when the floor changed).
    Teleport {
        /// The floor it arrived on.
        level: usize,
        /// Its cell.
        x: i32,
        /// Its row.
        y: i32,
    },
    /// A spinner turned the party.
    Spun {
        /// The way it faces now.
        facing: Facing,
    },
    /// The party stepped on a pressure plate.
    Plate {
        /// Its cell.
        x: i32,
        /// Its row.
        y: i32,
    },
    /// A button was pressed.
    Button {
        /// Its cell.
        x: i32,
        /// Its row.
        y: i32,
    },
    /// A lever, plate or button opened a named door.
    Opened {
        /// The door's name.
        name: String,
    },
    /// A lever, plate or button shut (and locked) a named door.
    Shut {
        /// The door's name.
        name: String,
    },
    /// A trap hurt a member of the front rank.
    Hurt {
        /// Who.
        member: String,
        /// For how much.
        damage: u32,
        /// The trap's name.
        from: String,
    },
    /// Two party members changed places (slots counted from 1).
    Swapped {
        /// One slot.
        a: usize,
        /// The other.
        b: usize,
    },
    /// The party stepped out of the light into a dark cell.
    Dark,
    /// A save was refused; the game in progress goes on as it was.
    LoadRefused {
        /// Why, in words.
        reason: String,
    },
    /// The party stepped onto a cell whose level row holds an event: nothing moves until the
    /// game answers with `choose` (a choice, or 0 to dismiss it).
    #[serde(rename = "event")]
    CellEvent {
        /// The event's id, unique on its level.
        id: String,
        /// What to show.
        text: String,
        /// The picture to show with it, if the row names one.
        picture: Option<String>,
        /// The labels of its choices, in order (counted from 1 by `choose`).
        choices: Vec<String>,
        /// Its cell.
        x: i32,
        /// Its row.
        y: i32,
    },
    /// A choice was taken at the event in progress: the game applies `outcome`; the flags in
    /// `set` are set and those in `clear` cleared already.
    Outcome {
        /// The event's id.
        id: String,
        /// The choice, counted from 1.
        choice: usize,
        /// Its label.
        label: String,
        /// Its outcome, the game's own word.
        outcome: String,
        /// Flags it set.
        set: Vec<String>,
        /// Flags it cleared.
        clear: Vec<String>,
    },
    /// The event in progress was put aside with no choice; it comes again when the party next
    /// steps onto its cell.
    Dismissed {
        /// The event's id.
        id: String,
    },
    /// The party was moved to a named map: by a link on a cell or stair (`link`), an event's
    /// choice (`choice`) or the game's `travel` (`travel`). A `level` event follows when the
    /// map changed.
    Travel {
        /// The map's name.
        map: String,
        /// Its number, counting from 0.
        level: usize,
        /// The cell.
        x: i32,
        /// The row.
        y: i32,
        /// What moved it: `link`, `choice` or `travel`.
        by: String,
    },
    /// The game set a door by its own rules (`door`): `open`, `shut` or `locked`.
    DoorChanged {
        /// Its cell.
        x: i32,
        /// Its row.
        y: i32,
        /// What it is now.
        state: String,
    },
    /// A rest of several ticks was cut short by a wandering group (the `encounter` or
    /// `spotted` event follows) or by a bite.
    RestInterrupted {
        /// The group that came (the monster's kind, for a bite).
        group: String,
        /// The ticks rested, the interrupted one included.
        ticks: u32,
    },
    /// A group was seen standing in the party's sight before it was reached: nothing moves
    /// until the game answers (`answer`).
    Spotted {
        /// The group.
        group: String,
        /// The level's text for it (empty for a wandering one).
        text: String,
        /// Its art, if it has any.
        art: Option<String>,
        /// How many cells away it stands (the larger of across and along).
        distance: u32,
        /// Its cell.
        x: i32,
        /// Its row.
        y: i32,
    },
    /// The game answered a spotted group (`fight`, `wait`, `flee`, `advance` or `parley`).
    Answered {
        /// The answer.
        answer: String,
    },
    /// The party asked to talk: the game settles it with `resolve` (true: the group is gone
    /// for good, as a fight won; false: it stays where it stands).
    Parley {
        /// The group.
        group: String,
        /// The level's text for it.
        text: String,
        /// Its art.
        art: Option<String>,
        /// Its cell.
        x: i32,
        /// Its row.
        y: i32,
    },
    /// A command the game gave could not be carried out; nothing changed.
    Refused {
        /// The command (`choose`, `travel`, `door` or `answer`).
        command: String,
        /// Why, in words.
        reason: String,
    },
}
