//! Every C call a script can make, bounded: what a Lua state needs so that no single library
//! call outruns the budget the instruction hook keeps.
//!
//! The hook only runs between VM instructions, so a library function whose work is not made of
//! instructions (`string.rep("", 1 << 62)`, `table.move` over 2^40 slots, a `__len` that lies)
//! would never be stopped. [`harden`] replaces each such function: the table functions are
//! rewritten in Lua, so their loops are instructions the hook counts, and the string functions
//! charge their work to a [`Meter`] (and refuse results past the memory limit) before the C code
//! starts. Every Lua state the project makes goes through it, with the sandbox's guard as its
//! meter or, for a one-off state such as a pack loader, a [`Budget`].

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use mlua::{Lua, VmState};

pub use super::strings::Meter;

/// How often a [`Budget`]'s hook runs, in VM instructions.
const BUDGET_HOOK_EVERY: u32 = 1000;

/// Makes `lua`'s libraries bounded: the metered pattern matcher and the bounded string, table
/// and utf8 functions, all spending from `meter`. Call it once, on a fresh state, before any
/// untrusted code runs and before the libraries are frozen or handed out.
pub fn harden(lua: &Lua, meter: Rc<dyn Meter>) -> mlua::Result<()> {
    // The library first: it keeps Lua's own C functions it wraps, which the matcher replaces.
    super::library::install(lua, meter.clone())?;
    super::strings::install(lua, meter)
}

/// Time on the seam's clock, the one the sandbox's wall-clock limit reads.
fn elapsed() -> Option<Duration> {
    crate::clock::current().map(|clock| (clock.elapsed)())
}

/// Why a [`Budget`] stopped its state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BudgetStop {
    /// The instructions (and metered steps) ran out.
    Instructions,
    /// The deadline passed.
    Time,
}

/// An instruction allowance and a deadline for a one-off Lua state (a pack loader, a tool):
/// the [`Meter`] for [`harden`] and the hook that spends from it.
#[derive(Debug)]
pub struct Budget {
    left: Cell<u64>,
    /// On the seam's clock (the page's on the web); `None` when no clock is set, which stops
    /// the state at its first check.
    deadline: Option<Duration>,
    stop: Cell<Option<BudgetStop>>,
}

impl Budget {
    /// `instructions` to spend before `time` has passed, counted from now.
    pub fn new(instructions: u64, time: Duration) -> Rc<Budget> {
        Rc::new(Budget {
            left: Cell::new(instructions),
            deadline: elapsed().map(|now| now + time),
            stop: Cell::new(None),
        })
    }

    /// Why the state was stopped, if it was. The host's own record: a script cannot fake it by
    /// raising an error with the same words.
    pub fn stopped(&self) -> Option<BudgetStop> {
        self.stop.get()
    }

    /// Installs the hook that spends from this budget on `lua`, coroutines included.
    pub fn install_hook(self: &Rc<Self>, lua: &Lua) -> mlua::Result<()> {
        let budget = self.clone();
        lua.set_global_hook(
            mlua::HookTriggers::new().every_nth_instruction(BUDGET_HOOK_EVERY),
            move |lua, _| {
                budget.charge(lua, BUDGET_HOOK_EVERY as u64)?;
                Ok(VmState::Continue)
            },
        )
    }

    fn error(&self) -> mlua::Error {
        mlua::Error::runtime(match self.stop.get() {
            Some(BudgetStop::Time) => "stopped: the script ran past its time limit",
            _ => "stopped: the script ran past its instruction limit",
        })
    }
}

impl Meter for Budget {
    fn remaining(&self) -> u64 {
        if self.stop.get().is_some() {
            0
        } else {
            self.left.get()
        }
    }

    fn charge(&self, _lua: &Lua, steps: u64) -> mlua::Result<()> {
        if self.stop.get().is_some() {
            return Err(self.error());
        }
        match self.left.get().checked_sub(steps) {
            Some(left) => self.left.set(left),
            None => {
                self.left.set(0);
                self.stop.set(Some(BudgetStop::Instructions));
                return Err(self.error());
            }
        }
        if self
            .deadline
            .zip(elapsed())
            .is_none_or(|(end, now)| now > end)
        {
            self.stop.set(Some(BudgetStop::Time));
            return Err(self.error());
        }
        Ok(())
    }
}
