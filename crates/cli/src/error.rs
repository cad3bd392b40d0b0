//! Bad input versus internal failure: the first exits 2, the second 1.

use std::fmt;

/// Input the user can fix: a flag, a file, a key or a value. The message
/// names what is wrong and what would be accepted.
#[derive(Debug)]
pub struct BadInput(pub String);

impl fmt::Display for BadInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// Shorthand for returning bad input.
pub fn bad_input(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(BadInput(message.into()))
}

/// 2 when any error in the chain is bad input, else 1.
pub fn exit_status(error: &anyhow::Error) -> u8 {
    if error.chain().any(|cause| cause.downcast_ref::<BadInput>().is_some()) { 2 } else { 1 }
}
