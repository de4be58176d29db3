//! What the debugger (src/debug/) needs of the machine beyond what the
//! environment and the observers use: the environment, mutably, from
//! inside a hook (the debugger's instruction hook turns the program's
//! console echo back on where a replay ends).

use super::{Environment, Uc};

/// The machine's environment as its concrete type, mutably, from inside
/// a hook; None while a system function holds it (between instructions
/// it is always there: a nested run lends it back).
pub fn environment_mut<'a, T: Environment>(uc: &'a mut Uc<'_>) -> Option<&'a mut T> {
    let env: &mut dyn std::any::Any = uc.get_data_mut().env.as_deref_mut()?;
    env.downcast_mut::<T>()
}
