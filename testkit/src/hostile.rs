//! A hostile corpus: odd but ordinary inputs that a campaign meets in the wild (test suites,
//! fuzzers, bug trackers). Every strategy must give each of them an outcome — a session or a
//! rejection with its reason — and go on.

use rand::{Rng, SeedableRng};
use std::path::Path;

/// One hostile program: its file name and bytes.
pub struct Hostile {
    pub name: &'static str,
    pub bytes: Vec<u8>,
}

const N: usize = 100_000;

fn text(name: &'static str, s: String) -> Hostile {
    Hostile {
        name,
        bytes: s.into_bytes(),
    }
}

/// A small program with a loop, a function and several lines, every line ended by `br`.
fn lines(br: &str) -> String {
    [
        "var total = 0;",
        "function add(a, b) {",
        "  return a + b; // sum",
        "}",
        "for (var i = 0; i < 3; i++) {",
        "  total = add(total, i);",
        "}",
        "/* a comment",
        "   over lines */ var s = 'done';",
        "console.log(total, s);",
        "",
    ]
    .join(br)
}

/// The JavaScript corpus, deterministic.
pub fn javascript() -> Vec<Hostile> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(28);
    let random: Vec<u8> = (0..4096).map(|_| rng.random()).collect();
    // Each its own text (the same text under two names is one program).
    let mut bom8 = vec![0xEF, 0xBB, 0xBF];
    bom8.extend(format!("// UTF-8 with a byte order mark\n{}", lines("\n")).into_bytes());
    let utf16 = |be: bool| -> Vec<u8> {
        let mut out = if be {
            vec![0xFE, 0xFF]
        } else {
            vec![0xFF, 0xFE]
        };
        let text = format!(
            "// UTF-16 {}: é, 😀\n{}",
            if be { "BE" } else { "LE" },
            lines("\n")
        );
        for u in text.encode_utf16() {
            out.extend(if be { u.to_be_bytes() } else { u.to_le_bytes() });
        }
        out
    };
    let statement = "var x0 = 12345 + 67890; // padding the program to ten megabytes\n";
    vec![
        Hostile {
            name: "random-bytes.js",
            bytes: random,
        },
        text("empty.js", String::new()),
        text(
            "nested-brackets.js",
            format!("var x = {}1{};\n", "[".repeat(N), "]".repeat(N)),
        ),
        text(
            "nested-parens.js",
            format!("var x = {}1{};\n", "(".repeat(N), ")".repeat(N)),
        ),
        text(
            "nested-blocks.js",
            format!("{}var x = 1;{}\n", "{".repeat(N), "}".repeat(N)),
        ),
        text(
            "nested-objects.js",
            format!("var x = {}1{};\n", "{a:".repeat(N), "}".repeat(N)),
        ),
        text(
            "nested-templates.js",
            format!("var x = {}1{};\n", "`${".repeat(N), "}`".repeat(N)),
        ),
        text(
            "nested-statements.js",
            format!("var a = 1;\n{}a = 2;\n", "if (a) ".repeat(N)),
        ),
        text(
            "ten-megabytes.js",
            statement.repeat((10 << 20) / statement.len()),
        ),
        text(
            "one-megabyte-line.js",
            format!(
                "var a = [{}0];\nconsole.log(a.length);\n",
                "0,".repeat(1 << 19)
            ),
        ),
        text(
            "nul-bytes.js",
            "var s = \"a\0b\"; // a NUL \0 in a comment\nvar t = s.length;\n".into(),
        ),
        text(
            "lone-surrogates.js",
            "var s = \"\\uD800\";\nvar t = '\\uDC00x';\nvar n = s.length + t.length;\n".into(),
        ),
        Hostile {
            name: "bom-utf8.js",
            bytes: bom8,
        },
        Hostile {
            name: "bom-utf16le.js",
            bytes: utf16(false),
        },
        Hostile {
            name: "bom-utf16be.js",
            bytes: utf16(true),
        },
        text("breaks-cr.js", lines("\r")),
        text("breaks-crlf.js", lines("\r\n")),
        text("breaks-ls.js", lines("\u{2028}")),
        text("breaks-ps.js", lines("\u{2029}")),
        text(
            "out-of-memory.js",
            "var hog = [];\nwhile (true) {\n  hog.push(new Array(1 << 20).fill(hog.length));\n}\n"
                .into(),
        ),
        // One statement of builtin calls (no break position inside) that fills 1.6 GB, fast: typed
        // arrays are filled like memset (an `Array(1e8).fill` is a dictionary-mode array that
        // fills so slowly under load that the action timed out before the bound was reached).
        text(
            "out-of-memory-at-once.js",
            "var x = 1;\nvar hog = [new Float64Array(1e8).fill(1.5), new Float64Array(1e8).fill(2.5)];\nx = hog.length;\n"
                .into(),
        ),
        text(
            "busy-after-end.js",
            "var x = 1;\nsetTimeout(function () {\n  for (;;) {}\n}, 0);\nx = 2;\n".into(),
        ),
    ]
}

/// The C corpus (coverage profilers), deterministic.
pub fn c() -> Vec<Hostile> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(29);
    let random: Vec<u8> = (0..4096).map(|_| rng.random()).collect();
    let program = |br: &str| {
        [
            "#include <stdio.h>",
            "int g;",
            "int main(void) {",
            "    int i;",
            "    for (i = 0; i < 3; i++)",
            "        g += i;",
            "    if (g > 100)",
            "        g = 0;",
            "    printf(\"%d\\n\", g);",
            "    return 0;",
            "}",
            "",
        ]
        .join(br)
    };
    vec![
        Hostile {
            name: "random-bytes.c",
            bytes: random,
        },
        text(
            "nested-blocks.c",
            format!(
                "int main(void) {{ int g = 0; {} g++; {} return g - 1; }}\n",
                "{ ".repeat(10_000),
                "} ".repeat(10_000)
            ),
        ),
        text("breaks-cr.c", program("\r")),
        text("breaks-crlf.c", program("\r\n")),
        text(
            "nul-bytes.c",
            "int main(void) { return 0; } /* \0 */\n".into(),
        ),
        // 1.5 GiB touched and held for two seconds: within the programs' 2 GiB address space,
        // beyond a 1 GiB memory bound.
        text(
            "out-of-memory.c",
            [
                "#include <stdlib.h>",
                "#include <string.h>",
                "#include <unistd.h>",
                "int main(void) {",
                "    size_t n = (size_t)1536 << 20;",
                "    char *p = malloc(n);",
                "    if (!p)",
                "        return 1;",
                "    memset(p, 1, n);",
                "    sleep(2);",
                "    return p[n - 1] - 1;",
                "}",
                "",
            ]
            .join("\n"),
        ),
    ]
}

/// A small Python program with a loop, a function and a comment, every line ended by `br`.
fn python_lines(br: &str) -> String {
    [
        "total = 0",
        "def add(a, b):",
        "    return a + b  # sum",
        "for i in range(3):",
        "    total = add(total, i)",
        "s = 'done'",
        "print(total, s)",
        "",
    ]
    .join(br)
}

/// The Python corpus (debugpy, pdb), deterministic.
pub fn python() -> Vec<Hostile> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(30);
    let random: Vec<u8> = (0..4096).map(|_| rng.random()).collect();
    let mut bom8 = vec![0xEF, 0xBB, 0xBF];
    bom8.extend(format!("# UTF-8 with a byte order mark\n{}", python_lines("\n")).into_bytes());
    vec![
        Hostile {
            name: "random-bytes.py",
            bytes: random,
        },
        Hostile {
            name: "bom-utf8.py",
            bytes: bom8,
        },
        text("empty.py", String::new()),
        text("breaks-crlf.py", python_lines("\r\n")),
        text("breaks-cr.py", python_lines("\r")),
        text("syntax-error.py", "x = 1\ny = = 2\n".into()),
        text("bad-indent.py", "def f():\nreturn 1\n".into()),
        // Deeper than CPython's parser goes: a syntax error ("too many nested parentheses").
        text(
            "nested-brackets.py",
            format!("x = {}1{}\n", "(".repeat(N), ")".repeat(N)),
        ),
        text(
            "deep-recursion.py",
            "def f(n):\n    return f(n + 1)\n\nf(0)\n".into(),
        ),
        text("endless.py", "n = 0\nwhile True:\n    n += 1\n".into()),
        text(
            "sleeps.py",
            "import time\nx = 1\ntime.sleep(3600)\nx = 2\n".into(),
        ),
        text("exits.py", "import sys\nprint('bye')\nsys.exit(3)\n".into()),
        text("aborts.py", "import os\nx = 1\nos.abort()\n".into()),
        text(
            "segfaults.py",
            "import ctypes\nx = 1\nctypes.string_at(0)\n".into(),
        ),
        text("reads-stdin.py", "x = input()\nprint(x)\n".into()),
        text(
            "prints-a-lot.py",
            "for i in range(100000):\n    print(i)\n".into(),
        ),
        text(
            "out-of-memory-at-once.py",
            "x = 1\nhog = [b'x' * (800 * 2**20), b'y' * (800 * 2**20)]\nx = len(hog)\n".into(),
        ),
        text(
            "thread-after-end.py",
            "import threading\nx = 1\nthreading.Thread(target=lambda: [0 for _ in iter(int, 1)], daemon=True).start()\nx = 2\n".into(),
        ),
    ]
}

/// Writes `programs` into `dir`.
pub fn write(dir: &Path, programs: &[Hostile]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for p in programs {
        std::fs::write(dir.join(p.name), &p.bytes)?;
    }
    Ok(())
}

/// The Go corpus (Delve), deterministic: bytes that are no text, a file that is no command, one
/// that does not build, a loop without end, a program past the memory bound, a panic, an exit
/// code of its own, a flood of output, goroutines left running at the end, and a read of stdin.
pub fn go() -> Vec<Hostile> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(31);
    let random: Vec<u8> = (0..4096).map(|_| rng.random()).collect();
    let main = |body: &[&str], imports: &[&str]| {
        let mut lines = vec!["package main".to_string(), String::new()];
        for i in imports {
            lines.push(format!("import \"{i}\""));
        }
        lines.push(String::new());
        lines.push("func main() {".into());
        lines.extend(body.iter().map(|l| format!("\t{l}")));
        lines.push("}".into());
        lines.push(String::new());
        lines.join("\n")
    };
    vec![
        Hostile {
            name: "random-bytes.go",
            bytes: random,
        },
        text(
            "not-a-command.go",
            "package sort\n\nfunc Ints(a []int) {}\n".into(),
        ),
        text("build-error.go", main(&["x := 1"], &[])),
        text("spin.go", main(&["n := 0", "for {", "\tn++", "}"], &[])),
        // 1.5 GiB filled and held for two seconds, beyond a 1 GiB memory bound. Filled by one
        // call: a loop touching every byte, unoptimized as Delve builds it, took over the 8 s
        // action timeout to pass the bound on a loaded 2-core machine (the session then ended
        // by the timeout, not the bound), and a loop touching a byte per page drew a breakpoint
        // in its body for the seed the test records (the action limit came first).
        text(
            "out-of-memory.go",
            main(
                &[
                    "b := bytes.Repeat([]byte{1}, 1536<<20)",
                    "time.Sleep(2 * time.Second)",
                    "println(b[len(b)-1])",
                ],
                &["bytes", "time"],
            ),
        ),
        text(
            "panic.go",
            main(&["var xs []int", "n := 3", "println(xs[n])"], &[]),
        ),
        text(
            "exit-code.go",
            main(&["println(\"bye\")", "os.Exit(3)"], &["os"]),
        ),
        text(
            "output-flood.go",
            main(
                &[
                    "line := strings.Repeat(\"x\", 1000)",
                    "for i := 0; i < 20000; i++ {",
                    "\tfmt.Println(line)",
                    "}",
                ],
                &["fmt", "strings"],
            ),
        ),
        text(
            "goroutines-left.go",
            main(
                &[
                    "for i := 0; i < 4; i++ {",
                    "\tgo func() {",
                    "\t\tfor {",
                    "\t\t\ttime.Sleep(time.Millisecond)",
                    "\t\t}",
                    "\t}()",
                    "}",
                    "println(\"main ends\")",
                ],
                &["time"],
            ),
        ),
        text(
            "reads-stdin.go",
            main(
                &[
                    "var s string",
                    "n, err := fmt.Scan(&s)",
                    "fmt.Println(n, err != nil)",
                ],
                &["fmt"],
            ),
        ),
    ]
}
