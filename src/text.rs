//! Small text helpers shared by the parsers: quoting offending input in error messages.

/// The first `max_chars` characters of `s`, with `…` appended if some were cut: error messages
/// quote the offending text without echoing a whole (possibly huge) line back.
pub(crate) fn clip(s: &str, max_chars: usize) -> String {
    let mut out: String = s.chars().take(max_chars).collect();
    if s.chars().nth(max_chars).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::clip;

    #[test]
    fn clips_long_text_by_characters() {
        assert_eq!(clip("abc", 3), "abc");
        assert_eq!(clip("abcd", 3), "abc…");
        assert_eq!(clip("éééé", 2), "éé…");
    }
}
