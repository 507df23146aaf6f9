//! Labels of records there are many of (draws, their values): short ones kept inline.

use std::fmt;
use std::sync::Arc;

/// Bytes a [`Label`] keeps inline.
const INLINE: usize = 22;

/// A record's label: up to 22 bytes kept inline (no allocation: draws are often labeled like
/// `object 123`, and their values `object 123.object`), longer ones shared. Dereferences to
/// `str`; a clone never allocates. 24 bytes.
#[derive(Clone)]
pub struct Label(Repr);

#[derive(Clone)]
enum Repr {
    Inline { len: u8, bytes: [u8; INLINE] },
    Shared(Arc<str>),
}

impl Label {
    /// `text` as a label.
    pub fn new(text: &str) -> Label {
        if text.len() <= INLINE {
            let mut bytes = [0u8; INLINE];
            bytes[..text.len()].copy_from_slice(text.as_bytes());
            Label(Repr::Inline {
                len: text.len() as u8,
                bytes,
            })
        } else {
            Label(Repr::Shared(Arc::from(text)))
        }
    }

    /// The label's text.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            // Whole `str`s are copied in, so the bytes are UTF-8.
            Repr::Inline { len, bytes } => {
                std::str::from_utf8(&bytes[..usize::from(*len)]).unwrap_or_default()
            }
            Repr::Shared(text) => text,
        }
    }
}

impl Default for Label {
    fn default() -> Self {
        Label::new("")
    }
}

impl std::ops::Deref for Label {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Label {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for Label {
    fn from(text: &str) -> Label {
        Label::new(text)
    }
}

impl PartialEq for Label {
    fn eq(&self, other: &Label) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Label {}

impl PartialEq<str> for Label {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl fmt::Debug for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Label;

    #[test]
    fn short_labels_are_inline_and_long_ones_shared_with_the_same_text() {
        assert_eq!(size_of::<Label>(), 24);
        for text in [
            "",
            "object 123",
            "object 12345.object",
            "twenty-two bytes: 22 b",
            "twenty-three bytes: 23b",
            "a label longer than twenty-two bytes",
            "ünïcödé 🦀 label",
        ] {
            let label = Label::new(text);
            assert_eq!(label.as_str(), text);
            assert_eq!(label.clone(), label);
            assert_eq!(format!("{label}"), text);
            assert_eq!(format!("{label:?}"), format!("{text:?}"));
            let inline = matches!(label.0, super::Repr::Inline { .. });
            assert_eq!(inline, text.len() <= super::INLINE, "{text}");
        }
    }
}
