//! Splitting a dotted signal path into scopes and a reference.

/// Splits `TOP.u_a.gen_vc[0].cnt_q[1]` at the dots that are not inside brackets:
/// `["TOP", "u_a", "gen_vc[0]", "cnt_q[1]"]`.
///
/// Every component must be non-empty printable ASCII without spaces (a VCD token), with
/// balanced, non-nested square brackets.
pub(crate) fn split_path(path: &str) -> Result<Vec<&str>, String> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut in_bracket = false;
    for (i, c) in path.char_indices() {
        match c {
            '!'..='~' => {}
            _ => {
                return Err(format!(
                    "signal path `{path}` has a character VCD cannot carry ({c:?})"
                ))
            }
        }
        match c {
            '[' if in_bracket => return Err(format!("signal path `{path}` has nested `[`")),
            '[' => in_bracket = true,
            ']' if !in_bracket => return Err(format!("signal path `{path}` has an unmatched `]`")),
            ']' => in_bracket = false,
            '.' if !in_bracket => {
                parts.push(&path[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if in_bracket {
        return Err(format!("signal path `{path}` has an unclosed `[`"));
    }
    parts.push(&path[start..]);
    if parts.iter().any(|p| p.is_empty()) {
        return Err(format!("signal path `{path}` has an empty component"));
    }
    if parts.len() < 2 {
        return Err(format!(
            "signal path `{path}` has no scope: a VCD variable must sit in at least one scope (e.g. `TOP.{path}`)"
        ));
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::split_path;

    #[test]
    fn splits_outside_brackets_only() {
        assert_eq!(
            split_path("TOP.exanet_link_top.u_a.gen_vc[0].credit_cnt_q[3]").unwrap(),
            [
                "TOP",
                "exanet_link_top",
                "u_a",
                "gen_vc[0]",
                "credit_cnt_q[3]"
            ]
        );
        assert_eq!(split_path("TOP.a[1.2].b").unwrap(), ["TOP", "a[1.2]", "b"]);
    }

    #[test]
    fn rejects_bad_paths() {
        for bad in [
            "",
            "clk_i",
            "TOP..x",
            "TOP.x.",
            ".TOP.x",
            "TOP.a[0",
            "TOP.a]0",
            "TOP.a[[0]]",
            "TOP.a b",
            "TOP.\u{e9}",
        ] {
            assert!(split_path(bad).is_err(), "{bad:?} accepted");
        }
    }
}
