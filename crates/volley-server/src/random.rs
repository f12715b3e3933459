//! Randomness from the operating system: seat tokens, game ids, dice seeds.

use volley_core::Seed;

/// Random bytes from the operating system, as lowercase hex (URL-safe).
pub fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).expect("the operating system supplies random bytes");
    volley_core::dice::to_hex(&buf)
}

pub fn random_seed() -> Seed {
    let mut buf = [0u8; 32];
    getrandom::fill(&mut buf).expect("the operating system supplies random bytes");
    Seed(buf)
}

pub fn random_u64() -> u64 {
    let mut buf = [0u8; 8];
    getrandom::fill(&mut buf).expect("the operating system supplies random bytes");
    u64::from_le_bytes(buf)
}
