//! Checks of a command line's help, shared by the two binaries' tests.

/// The subcommands and arguments of `command` (recursively) that say nothing in `--help`, as
/// `path argument` (clap's own `help` and `version` left out).
pub fn undescribed(command: &clap::Command) -> Vec<String> {
    fn walk(c: &clap::Command, path: &str, missing: &mut Vec<String>) {
        for a in c.get_arguments() {
            let id = a.get_id().as_str();
            if matches!(id, "help" | "version") {
                continue;
            }
            if a.get_help().is_none() && a.get_long_help().is_none() {
                missing.push(format!("{path} {id}"));
            }
        }
        for s in c.get_subcommands() {
            let sub = format!("{path} {}", s.get_name());
            if s.get_name() != "help" && s.get_about().is_none() {
                missing.push(sub.clone());
            }
            walk(s, &sub, missing);
        }
    }
    let mut missing = Vec::new();
    walk(command, command.get_name(), &mut missing);
    missing
}
