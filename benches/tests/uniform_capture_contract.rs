//! The `uniform-capture` binary is a contract (`benches/README.md`): outside scripts call
//! it. Runs the real binary on the noop device for every mode and scenario and checks the JSON
//! line (keys, in order) and the counters each scenario promises (typed mode: exactly struct
//! mode's); and the exit code of a bad flag. Timings are printed, never asserted.

use std::process::Command;

const KEYS: [&str; 15] = [
    "mode",
    "scenario",
    "draws",
    "passes",
    "frames",
    "backend",
    "adapter",
    "bind_groups_created_per_frame",
    "buffers_created_per_frame",
    "write_calls_per_frame",
    "bytes_uploaded_per_frame",
    "encode_us_median",
    "encode_us_p95",
    "submit_us_median",
    "allocations_per_frame",
];

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_uniform-capture"))
        .args(args)
        .output()
        .expect("run uniform-capture")
}

/// The value of `key` in the flat JSON object `line` (numbers and strings only).
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let at = line
        .find(&format!("\"{key}\":"))
        .unwrap_or_else(|| panic!("no key {key} in {line}"));
    let rest = &line[at + key.len() + 3..];
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    rest[..end].trim_matches('"')
}

fn number(line: &str, key: &str) -> f64 {
    field(line, key)
        .parse()
        .unwrap_or_else(|e| panic!("{key} in {line}: {e}"))
}

/// The counters of a JSON line: bind groups, buffers, writes, bytes (per frame).
fn counters(line: &str) -> [f64; 4] {
    [
        "bind_groups_created_per_frame",
        "buffers_created_per_frame",
        "write_calls_per_frame",
        "bytes_uploaded_per_frame",
    ]
    .map(|k| number(line, k))
}

const MODES: [&str; 5] = ["struct", "typed", "buffer", "raw", "raw-bundle"];
const SCENARIOS: [&str; 6] = [
    "static",
    "per-pass-camera",
    "one-changes",
    "all-change",
    "reset-all",
    "reshuffle",
];

#[test]
fn every_mode_and_scenario_prints_the_contract_line_with_its_counters() {
    let mut lines = std::collections::HashMap::new();
    for mode in MODES {
        for scenario in SCENARIOS {
            let out = run(&[
                "--mode",
                mode,
                "--scenario",
                scenario,
                "--draws",
                "300",
                "--passes",
                "2",
                "--frames",
                "4",
                "--warmup",
                "2",
                "--backend",
                "noop",
                "--json",
            ]);
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{mode}/{scenario}: {out:?}");
            let line = stdout.lines().last().expect("a JSON line").trim();
            eprintln!("{line}");
            // Exactly the contract's keys, in its order.
            let positions: Vec<usize> = KEYS
                .iter()
                .map(|k| line.find(&format!("\"{k}\":")).expect(k))
                .collect();
            assert!(
                positions.windows(2).all(|w| w[0] < w[1]),
                "key order: {line}"
            );
            assert_eq!(
                line.matches("\":").count(),
                KEYS.len(),
                "extra keys: {line}"
            );
            assert_eq!(field(line, "mode"), mode);
            assert_eq!(field(line, "scenario"), scenario);
            assert_eq!(field(line, "backend"), "noop");
            assert_eq!(number(line, "draws"), 300.0);
            assert_eq!(number(line, "frames"), 4.0);
            // Steady frames create nothing.
            assert_eq!(number(line, "bind_groups_created_per_frame"), 0.0, "{line}");
            assert_eq!(number(line, "buffers_created_per_frame"), 0.0, "{line}");
            let (writes, bytes) = (
                number(line, "write_calls_per_frame"),
                number(line, "bytes_uploaded_per_frame"),
            );
            match (mode, scenario) {
                // Resident values: nothing uploaded (buffer mode keeps one camera per pass);
                // values re-set unchanged every frame: compared, nothing uploaded; draws
                // reordered and culled: nothing uploaded either.
                (_, "static" | "per-pass-camera" | "reset-all" | "reshuffle") => {
                    assert_eq!((writes, bytes), (0.0, 0.0), "{line}")
                }
                // One object's 64 bytes in one write.
                (_, "one-changes") => assert_eq!((writes, bytes), (1.0, 64.0), "{line}"),
                // Every object's 64 bytes: one write per object in buffer mode, else one per
                // dirty page of 256-byte slots (300 × 256 B: one 256 KiB page, or two where a page starts
                // part-used).
                ("buffer", "all-change") => assert_eq!((writes, bytes), (300.0, 300.0 * 64.0)),
                (_, "all-change") => {
                    assert!((1.0..=2.0).contains(&writes), "{line}");
                    assert!(bytes >= 300.0 * 64.0, "{line}");
                }
                _ => unreachable!(),
            }
            // Times are reported, never asserted (a fast machine may measure 0 µs): each is a
            // number.
            for key in ["encode_us_median", "encode_us_p95", "submit_us_median"] {
                assert!(number(line, key).is_finite(), "{key} in {line}");
            }
            lines.insert((mode, scenario), line.to_owned());
        }
    }
    // Typed values take the struct path's slots: the same creations, writes and bytes in every
    // scenario (all-change: every object's 64 bytes, in the same dirty runs of 256-byte slots).
    for scenario in SCENARIOS {
        let (typed, plain) = (&lines[&("typed", scenario)], &lines[&("struct", scenario)]);
        assert_eq!(counters(typed), counters(plain), "{typed}\n{plain}");
        // raw-bundle uploads exactly what raw uploads (its bundles only replace the encoding).
        let (bundled, raw) = (
            &lines[&("raw-bundle", scenario)],
            &lines[&("raw", scenario)],
        );
        assert_eq!(counters(bundled), counters(raw), "{bundled}\n{raw}");
    }
}

#[test]
fn a_bad_flag_exits_2_with_the_usage() {
    let out = run(&["--mode", "fast"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--mode"), "{stderr}");
    let out = run(&["--backend", "metal-on-linux"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    // The usage lists every mode and scenario.
    let out = run(&["--help"]);
    assert!(out.status.success(), "{out:?}");
    let usage = String::from_utf8_lossy(&out.stdout);
    for name in MODES.iter().chain(&SCENARIOS) {
        assert!(usage.contains(name), "{name} missing from --help:\n{usage}");
    }
}

/// `benches/rounds.sh` (interleaved rounds for wall-time comparisons) runs every scenario in every
/// mode once per round, starting each round from the next mode, and prints the binary's JSON
/// line with the round first; a failed run prints an error line and makes the script exit 1.
#[test]
fn rounds_script_interleaves_modes_and_tags_rounds() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/rounds.sh");
    let rounds = |extra: &[&str]| {
        Command::new("bash")
            .arg(script)
            .args([
                "--rounds",
                "3",
                "--modes",
                "raw,typed",
                "--scenarios",
                "static,reset-all",
                "--draws",
                "4",
                "--frames",
                "2",
                "--warmup",
                "1",
            ])
            .args(extra)
            .env("UNIFORM_CAPTURE_BIN", env!("CARGO_BIN_EXE_uniform-capture"))
            .output()
            .expect("run rounds.sh")
    };
    let out = rounds(&[]);
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let order: Vec<(String, String, String)> = stdout
        .lines()
        .map(|line| {
            assert!(line.starts_with("{\"round\":"), "{line}");
            assert!(!line.contains("error"), "{line}");
            for key in KEYS {
                field(line, key);
            }
            (
                field(line, "round").to_owned(),
                field(line, "scenario").to_owned(),
                field(line, "mode").to_owned(),
            )
        })
        .collect();
    let expected: Vec<(String, String, String)> = [
        ("0", "static", "raw"),
        ("0", "static", "typed"),
        ("0", "reset-all", "raw"),
        ("0", "reset-all", "typed"),
        ("1", "static", "typed"),
        ("1", "static", "raw"),
        ("1", "reset-all", "typed"),
        ("1", "reset-all", "raw"),
        ("2", "static", "raw"),
        ("2", "static", "typed"),
        ("2", "reset-all", "raw"),
        ("2", "reset-all", "typed"),
    ]
    .iter()
    .map(|(r, s, m)| (r.to_string(), s.to_string(), m.to_string()))
    .collect();
    assert_eq!(order, expected);

    // A backend the binary refuses: every run prints an error line, and the script fails.
    let out = rounds(&["--backend", "metal-on-linux", "--rounds", "1"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 4, "{stdout}");
    assert!(stdout.lines().all(|l| l.contains("\"error\":")), "{stdout}");
}
