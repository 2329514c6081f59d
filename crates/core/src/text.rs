//! Small text helpers shared by the parsers and the reports: quoting offending input in error
//! messages, and putting free text (names from files) on one line.

/// The first `max_chars` characters of `s`, with `…` appended if some were cut: error messages
/// quote the offending text without echoing a whole (possibly huge) line back.
pub fn clip(s: &str, max_chars: usize) -> String {
    let mut out: String = s.chars().take(max_chars).collect();
    if s.chars().nth(max_chars).is_some() {
        out.push('…');
    }
    out
}

/// `s` with every control character (a line break, NUL, a newline from a Latin-1 name file)
/// made a space: names and free text from files reach one-line formats, terminals and pages.
pub fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{clip, one_line};

    #[test]
    fn control_characters_become_spaces() {
        assert_eq!(one_line("a\nb\tc\0d é"), "a b c d é");
    }

    #[test]
    fn clips_long_text_by_characters() {
        assert_eq!(clip("abc", 3), "abc");
        assert_eq!(clip("abcd", 3), "abc…");
        assert_eq!(clip("éééé", 2), "éé…");
    }
}
