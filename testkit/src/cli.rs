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

/// The subcommands of `command` (recursively) whose summary in the list of `--help` is longer
/// than one line of `max` characters (the rest of a description belongs in its own `--help`).
pub fn wordy_summaries(command: &clap::Command, max: usize) -> Vec<String> {
    fn walk(c: &clap::Command, path: &str, max: usize, out: &mut Vec<String>) {
        for s in c.get_subcommands() {
            let sub = format!("{path} {}", s.get_name());
            if let Some(about) = s.get_about() {
                let text = about.to_string();
                if text.contains('\n') || text.chars().count() > max {
                    out.push(format!("{sub}: {} characters", text.chars().count()));
                }
            }
            walk(s, &sub, max, out);
        }
    }
    let mut out = Vec::new();
    walk(command, command.get_name(), max, &mut out);
    out
}

/// The two checks of a binary's command line, as its tests run them: every subcommand and
/// argument described, every subcommand summarized in one line of `max` characters.
pub fn assert_help_is_complete(command: &clap::Command, max: usize) {
    let missing = undescribed(command);
    assert!(missing.is_empty(), "without a description: {missing:#?}");
    let wordy = wordy_summaries(command, max);
    assert!(wordy.is_empty(), "summaries too long: {wordy:#?}");
}
