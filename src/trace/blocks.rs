//! Translation blocks as the tracer and the shadow call stack see them:
//! each block the CPU enters is read and decoded once (iced-x86) and kept
//! by its linear address, size and CS. A block is looked up again by the
//! same key and used only while its bytes are unchanged, so a program that
//! writes over code it executed gets its new instructions decoded afresh.

use std::collections::HashMap;

use iced_x86::{Decoder, DecoderOptions, FlowControl, Instruction, Mnemonic};

use crate::machine::Uc;

/// At most this many bytes of a block are decoded (unicorn's blocks are
/// far shorter).
const MAX_BLOCK_BYTES: u32 = 4096;

/// At most this many blocks are kept; past it the cache starts afresh.
const MAX_BLOCKS: usize = 1 << 18;

/// What an instruction does to the call chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Anything else.
    Other,
    /// `call` near (pushes IP).
    NearCall,
    /// `call far` (pushes CS, IP).
    FarCall,
    /// `int n`, `into`, `int3` (pushes FLAGS, CS, IP).
    Int,
    /// `ret`, `retf`, `iret`.
    Return,
}

/// One decoded instruction of a block.
#[derive(Debug, Clone)]
pub struct Insn {
    /// Its IP (the block's CS).
    pub ip: u16,
    /// Its offset and length in the block's bytes.
    pub at: u16,
    /// Its length in bytes.
    pub len: u8,
    /// How it transfers control.
    pub flow: Flow,
    /// The decoded instruction.
    pub insn: Instruction,
}

/// A decoded block.
#[derive(Debug, Clone)]
pub struct Block {
    /// The block's linear address.
    pub linear: u64,
    /// CS of the block.
    pub cs: u16,
    /// IP of its first instruction.
    pub ip: u16,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Its instructions.
    pub insns: Vec<Insn>,
}

impl Block {
    /// The instructions up to and including the one at `ip` (all when `ip`
    /// lies outside the block).
    pub fn through(&self, ip: u16) -> &[Insn] {
        match self.insns.iter().position(|i| i.ip == ip) {
            Some(k) => &self.insns[..=k],
            None => &self.insns,
        }
    }

    /// The instructions before the one at `ip` (all when `ip` lies outside
    /// the block).
    pub fn before(&self, ip: u16) -> &[Insn] {
        match self.insns.iter().position(|i| i.ip == ip) {
            Some(k) => &self.insns[..k],
            None => &self.insns,
        }
    }
}

fn flow(i: &Instruction) -> Flow {
    match i.flow_control() {
        FlowControl::Call | FlowControl::IndirectCall => match i.mnemonic() {
            Mnemonic::Call if i.is_call_far() || i.is_call_far_indirect() => Flow::FarCall,
            _ => Flow::NearCall,
        },
        FlowControl::Interrupt => Flow::Int,
        FlowControl::Return => Flow::Return,
        _ => Flow::Other,
    }
}

/// Decode `bytes` (the block at CS:IP).
pub fn decode(linear: u64, cs: u16, ip: u16, bytes: Vec<u8>) -> Block {
    let mut insns = Vec::new();
    let mut d = Decoder::with_ip(16, &bytes, u64::from(ip), DecoderOptions::NONE);
    let mut at = 0usize;
    while d.can_decode() {
        let insn = d.decode();
        let len = insn.len().max(1);
        insns.push(Insn {
            ip: ip.wrapping_add(at as u16),
            at: at as u16,
            len: len as u8,
            flow: flow(&insn),
            insn,
        });
        at += len;
    }
    Block {
        linear,
        cs,
        ip,
        bytes,
        insns,
    }
}

/// The cache of decoded blocks.
#[derive(Default)]
pub struct Blocks {
    by_key: HashMap<(u64, u32, u16), usize>,
    /// The blocks seen, by first entry.
    pub blocks: Vec<Block>,
    scratch: Vec<u8>,
}

impl Blocks {
    /// The block the CPU enters at linear `addr` (`size` bytes, CS:IP at
    /// its start): its index, decoded now if it is new or its bytes
    /// changed. None when its bytes cannot be read.
    pub fn enter(&mut self, uc: &Uc<'_>, addr: u64, size: u32, cs: u16, ip: u16) -> Option<usize> {
        let size = size.min(MAX_BLOCK_BYTES);
        self.scratch.resize(size as usize, 0);
        uc.mem_read(addr, &mut self.scratch).ok()?;
        let key = (addr, size, cs);
        if let Some(&k) = self.by_key.get(&key) {
            if self.blocks[k].bytes == self.scratch {
                return Some(k);
            }
        }
        if self.blocks.len() >= MAX_BLOCKS {
            self.by_key.clear();
            self.blocks.clear();
        }
        let k = self.blocks.len();
        self.blocks.push(decode(addr, cs, ip, self.scratch.clone()));
        self.by_key.insert(key, k);
        Some(k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_returns_and_interrupts_are_told_apart() {
        // call near; call far 1234:5678; int 21h; ret; retf 4; iret; nop
        let bytes = vec![
            0xE8, 0x00, 0x00, 0x9A, 0x78, 0x56, 0x34, 0x12, 0xCD, 0x21, 0xC3, 0xCA, 0x04, 0x00,
            0xCF, 0x90,
        ];
        let b = decode(0x1000, 0x10, 0x100, bytes);
        let flows: Vec<Flow> = b.insns.iter().map(|i| i.flow).collect();
        assert_eq!(
            flows,
            [
                Flow::NearCall,
                Flow::FarCall,
                Flow::Int,
                Flow::Return,
                Flow::Return,
                Flow::Return,
                Flow::Other
            ]
        );
        let ips: Vec<u16> = b.insns.iter().map(|i| i.ip).collect();
        assert_eq!(ips, [0x100, 0x103, 0x108, 0x10A, 0x10B, 0x10E, 0x10F]);
        assert_eq!(b.through(0x108).len(), 3);
        assert_eq!(b.before(0x108).len(), 2);
        assert_eq!(b.before(0x999).len(), 7);
    }
}
