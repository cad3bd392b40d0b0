//! The kernel's integration tests: one binary, one module per subject.

mod brigades;
mod hougoumont;
mod huzzah;
mod kernel;
mod one_hour;

/// `pairs` with `purpose=manoeuvre` first, where the scenario takes a
/// `purpose` and `pairs` set none. The mechanics tests pin values worked out
/// under the manoeuvring fight (either side may leave, the limit a draw),
/// which every game still offers; the defaults' own purposes are tested in
/// `kernel::purposes`.
pub fn manoeuvring<'a>(
    entry: &volley_kernel::catalogue::ScenarioEntry,
    pairs: &[(&'a str, &'a str)],
) -> Vec<(&'a str, &'a str)> {
    let takes = entry.params.iter().any(|param| param.name == "purpose");
    let set = pairs.iter().any(|(key, _)| *key == "purpose");
    let mut all = Vec::with_capacity(pairs.len() + 1);
    if takes && !set {
        all.push(("purpose", "manoeuvre"));
    }
    all.extend_from_slice(pairs);
    all
}
