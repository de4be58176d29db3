//! INT 21h AH=48h-4Ah and 58h: memory blocks on the MCB chain
//! ([`crate::dos::memory`]), as DOS hands them out: allocate BX paragraphs
//! (AX = the block; error 8 with BX = the largest free block), free the
//! block at ES, resize the block at ES to BX (error 8 with BX = the most it
//! could have), and the allocation strategy. A chain that is not intact is
//! error 7. Without DOS memory (Win16 tasks) these stop as unimplemented.

use super::{al, fail, ok, set};
use crate::dos::Env;
use crate::dos::memory::{self, Strategy};
use crate::machine::{Cpu, R, Stop, Uc};

fn need_dos_memory(env: &Env, uc: &Uc<'_>) -> Result<u16, Stop> {
    match env.dos.first_mcb {
        0 => {
            let ah = super::ah(uc);
            Err(crate::dos::unimplemented(
                uc,
                format!("INT 21h AH={ah:02X}h without DOS memory"),
            ))
        }
        f => Ok(f),
    }
}

/// AH=48h: allocate BX paragraphs.
pub fn allocate(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let first = need_dos_memory(env, uc)?;
    let bx = uc.reg(R::BX);
    match memory::allocate_with(uc, first, env.dos.psp, bx, env.dos.strategy) {
        Ok(seg) => {
            set(uc, R::AX, seg)?;
            ok(uc)
        }
        Err((code, largest)) => {
            set(uc, R::BX, largest)?;
            fail(env, uc, code)
        }
    }
}

/// AH=49h: free the block at ES (error 9 when ES is no block).
pub fn free(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let first = need_dos_memory(env, uc)?;
    let es = uc.reg(R::ES);
    match memory::free(uc, first, es) {
        Ok(()) => ok(uc),
        Err(code) => fail(env, uc, code),
    }
}

/// AH=4Ah: resize the block at ES to BX paragraphs.
pub fn resize(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let first = need_dos_memory(env, uc)?;
    let (es, bx) = (uc.reg(R::ES), uc.reg(R::BX));
    match memory::resize(uc, first, es, bx) {
        Ok(()) => ok(uc),
        Err((code, largest)) => {
            if code == memory::ERR_NO_MEMORY {
                set(uc, R::BX, largest)?;
            }
            fail(env, uc, code)
        }
    }
}

/// AH=58h: AL=0 get the strategy (AX), AL=1 set it from BX (0 first fit,
/// 1 best fit, 2 last fit); AL=2/3 get and set the upper memory link,
/// which without upper memory reads 0 and refuses a link (error 1). Other
/// AL: error 1.
pub fn strategy(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    match al(uc) {
        0 => {
            set(uc, R::AX, env.dos.strategy.code())?;
            ok(uc)
        }
        1 => match Strategy::from_code(uc.reg(R::BX)) {
            Some(s) => {
                env.dos.strategy = s;
                ok(uc)
            }
            None => fail(env, uc, 1),
        },
        2 => {
            set(uc, R::AX, 0)?;
            ok(uc)
        }
        3 if uc.reg(R::BX) == 0 => ok(uc),
        _ => fail(env, uc, 1),
    }
}
