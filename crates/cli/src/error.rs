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

/// The most characters of one word a message repeats back: a value pasted
/// by mistake (a whole file, a 7,000-character query) is cut, not echoed.
pub const LONGEST_ECHO: usize = 80;

/// `message` with every run of non-space characters longer than
/// [`LONGEST_ECHO`] cut to its start and a note of its length.
pub fn cut_long_words(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(4 * LONGEST_ECHO));
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let length = word.chars().count();
        if length > LONGEST_ECHO {
            out.extend(word.chars().take(LONGEST_ECHO - 20));
            out.push_str(&format!("… ({length} characters)"));
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in message.chars() {
        if c.is_whitespace() {
            flush(&mut word, &mut out);
            out.push(c);
        } else {
            word.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The value `text` as a message may quote it: cut where it is long.
pub fn cut(text: &str) -> String {
    cut_long_words(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_words_are_cut_and_short_ones_kept() {
        let long = "x".repeat(7000);
        let cut = cut_long_words(&format!("attacker.quality: `{long}` is not a quality"));
        assert!(cut.len() < 120, "{cut}");
        assert!(
            cut.starts_with("attacker.quality: `xxxx") && cut.contains("(7002 characters) is not a quality"),
            "{cut}"
        );
        assert_eq!(cut_long_words("a short message, kept  as it is"), "a short message, kept  as it is");
    }
}
