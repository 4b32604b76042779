//! Indentation for the text writers (the Rust file's layout, Bicep): runs of spaces
//! copied from a constant, as pushing them a `char` at a time cost about 165
//! instructions an indentation, tens of thousands of times in a large model.

/// Appends `n` spaces to `out`.
pub(crate) fn push_spaces(out: &mut String, n: usize) {
    const SPACES: &str = "                                                                ";
    let mut left = n;
    while left > SPACES.len() {
        out.push_str(SPACES);
        left -= SPACES.len();
    }
    out.push_str(&SPACES[..left]);
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
