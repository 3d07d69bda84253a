//! The package's commands as the host sees them: what each declares, checked the way a
//! script's call is checked before anything is queued.

use jengine::Registry;
use jengine::value::{self, Value};
use jengine_miau::MiauPackage;

fn check(flat: &str, values: Vec<Value>) -> Result<(), String> {
    let mut reg = Registry::new();
    reg.add(&MiauPackage);
    let cmd = reg.find_command(flat).expect("the command is registered");
    let mut values = values;
    value::check_all(cmd.params(), &mut values)
        .and_then(|()| cmd.check_together(&values))
        .map_err(|e| e.to_string())
}

fn entity() -> Value {
    Value::Int(1 << 32)
}

#[test]
fn a_move_that_is_not_one_of_the_five_is_refused_at_the_call() {
    for dir in ["up", "down", "left", "right", "wait"] {
        assert!(check("miau_move", vec![entity(), Value::Str(dir.into())]).is_ok());
    }
    assert_eq!(
        check("miau_move", vec![entity(), Value::Str("sideways".into())]).unwrap_err(),
        "argument 2 (dir) must be \"up\", \"down\", \"left\", \"right\" or \"wait\", got \
         string \"sideways\""
    );
}

#[test]
fn a_way_to_keep_a_pack_that_is_not_known_is_refused_at_the_call() {
    for mode in [
        Value::Nil,
        Value::Str(String::new()),
        Value::Str("both".into()),
    ] {
        assert!(check("miau_keep", vec![entity(), mode]).is_ok());
    }
    let err = check("miau_keep", vec![entity(), Value::Str("merge".into())]).unwrap_err();
    assert!(
        err.starts_with("argument 2 (mode) must be \"\", \"replace\" or \"both\""),
        "{err}"
    );
}
