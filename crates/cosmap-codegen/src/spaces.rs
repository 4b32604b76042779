//! Indentation for the text writers (the Rust file's layout, Bicep).

/// Appends `n` spaces to `out`.
pub(crate) fn push_spaces(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Any indentation, wider than the constant too, is that many spaces.
    #[test]
    fn any_width_is_that_many_spaces() {
        for n in 0..200 {
            let mut out = String::from("x");
            push_spaces(&mut out, n);
            assert_eq!(out, format!("x{}", " ".repeat(n)));
        }
    }
}
