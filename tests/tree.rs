//! The tree's own rules, read from its source: one word per idea (no two types of one
//! name, the glossary's names found in the code) and no import circles between modules.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The crates' source roots: the physics crate, the lab on it, gyrolab (the app and the
/// command line) and the lab's wasm interface on the lab.
const ROOTS: [&str; 4] = ["physics/src", "lab/src", "src", "wasm/src"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    files_of(dir, &["rs"], out);
}

/// Every file under `dir` whose extension is one of `extensions`.
fn files_of(dir: &Path, extensions: &[&str], out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_of(&path, extensions, out);
        } else if (path.extension()).is_some_and(|e| extensions.iter().any(|x| e == *x)) {
            out.push(path);
        }
    }
}

/// The source without its unit tests and comments: what the crate itself is made of.
fn code(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap();
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => &text,
    };
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Each file's module path in its crate: `contact/mod.rs` is `contact`, `lib.rs` is ``.
fn module(root: &Path, path: &Path) -> Vec<String> {
    let rel = path.strip_prefix(root).unwrap().with_extension("");
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into()).collect();
    if parts
        .last()
        .is_some_and(|p| p == "mod" || p == "lib" || p == "main")
    {
        parts.pop();
    }
    parts
}

/// Every path that starts at `crate`, `super` or `self`, as its words; a path that opens
/// a brace (`use super::{a, b::C}`) gives one path per item inside it.
fn paths(code: &str) -> Vec<Vec<String>> {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    for head in ["crate::", "super::", "self::"] {
        for (i, _) in code.match_indices(head) {
            let before = code[..i].chars().next_back();
            if before.is_some_and(|c| ident(c) || c == ':') {
                continue;
            }
            let tail = &code[i..];
            let end = tail
                .find(|c: char| !(ident(c) || c == ':'))
                .unwrap_or(tail.len());
            let stem = tail[..end].trim_end_matches(':');
            if tail[end..].starts_with('{') {
                let close = tail[end..].find('}').map_or(tail.len(), |k| end + k);
                for item in tail[end + 1..close].split([',', '{']) {
                    let item = item.trim().split(" as ").next().unwrap_or("").trim();
                    if !item.is_empty() {
                        out.push(format!("{stem}::{item}"));
                    }
                }
            } else {
                out.push(stem.to_string());
            }
        }
    }
    out.into_iter()
        .map(|p| {
            p.split("::")
                .filter(|w| !w.is_empty())
                .map(str::to_string)
                .collect()
        })
        .collect()
}

/// The module graph of one crate: an edge from each module to every module it names.
fn graph(root: &Path) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let mut files = Vec::new();
    rust_files(root, &mut files);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module(root, f)).collect();
    let mut edges = BTreeMap::new();
    for file in &files {
        let from = module(root, file);
        let mut to = BTreeSet::new();
        for path in paths(&code(file)) {
            let mut full = match path[0].as_str() {
                "crate" => Vec::new(),
                _ => from.clone(),
            };
            let mut rest = &path[1..];
            if path[0] == "super" {
                full.pop();
                while rest.first().is_some_and(|w| w == "super") {
                    full.pop();
                    rest = &rest[1..];
                }
            }
            full.extend(rest.iter().cloned());
            let target = (0..=full.len())
                .rev()
                .map(|k| full[..k].to_vec())
                .find(|m| modules.contains(m))
                .unwrap_or_default();
            if target != from {
                to.insert(target);
            }
        }
        edges.insert(from, to);
    }
    edges
}

/// The modules from which `start` can be reached again.
fn circle(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>, start: &[String]) -> bool {
    let mut seen = BTreeSet::new();
    let mut stack: Vec<&Vec<String>> = edges[start].iter().collect();
    while let Some(m) = stack.pop() {
        if m.as_slice() == start {
            return true;
        }
        if seen.insert(m.clone()) {
            stack.extend(edges.get(m).into_iter().flatten());
        }
    }
    false
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let mut circles = Vec::new();
    for root in ROOTS {
        let edges = graph(Path::new(root));
        for module in edges.keys() {
            if circle(&edges, module) {
                circles.push(format!("{root}: {}", module.join("::")));
            }
        }
    }
    assert!(
        circles.is_empty(),
        "modules in import circles: {circles:#?}"
    );
}

/// The graph sees a circle where there is one: two files naming each other.
#[test]
fn the_circle_check_finds_a_circle() {
    let dir = std::env::temp_dir().join(format!("gyrolab-tree-{}", std::process::id()));
    fs::create_dir_all(dir.join("a")).unwrap();
    fs::write(dir.join("lib.rs"), "pub mod a;\n").unwrap();
    fs::write(dir.join("a/mod.rs"), "mod b;\nmod c;\n").unwrap();
    fs::write(dir.join("a/b.rs"), "use super::c::{C, D};\npub struct B;\n").unwrap();
    fs::write(
        dir.join("a/c.rs"),
        "pub struct C;\nfn f() -> crate::a::b::B { todo!() }\n",
    )
    .unwrap();
    let edges = graph(&dir);
    fs::remove_dir_all(&dir).unwrap();
    let b = vec!["a".to_string(), "b".to_string()];
    assert!(circle(&edges, &b), "{edges:?}");
    assert!(!circle(&edges, &["a".to_string()]), "{edges:?}");
}

/// Every type the crates define, by name, with the files that define one of that name.
fn types() -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for root in ROOTS {
        let mut files = Vec::new();
        rust_files(Path::new(root), &mut files);
        for file in files {
            for line in code(&file).lines() {
                let words: Vec<&str> = line.split_whitespace().collect();
                for pair in words.windows(2) {
                    // An indented `type` is an impl's or a trait's associated type.
                    let alias = pair[0] == "type" && !line.starts_with(char::is_whitespace);
                    if ["struct", "enum", "trait", "union"].contains(&pair[0]) || alias {
                        let name: String = pair[1]
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        if name.starts_with(char::is_uppercase) {
                            out.entry(name)
                                .or_default()
                                .push(file.display().to_string());
                        }
                    }
                }
            }
        }
    }
    out
}

#[test]
fn no_two_types_share_a_name() {
    let shared: Vec<_> = types().into_iter().filter(|(_, f)| f.len() > 1).collect();
    assert!(shared.is_empty(), "types of one name: {shared:#?}");
}

/// The glossary's code names each name what the code defines where they say: a module
/// path (`solver::kernel::RowPass`) is a module of one of the crates and its last
/// word an item defined in that module or below it; `Type::member` is a type and a
/// function, field or variant of it, defined in the type's own files.
#[test]
fn the_glossary_names_what_the_code_has() {
    let doc = fs::read_to_string("docs/architecture.md").unwrap();
    let words = doc.split("## Words").nth(1).unwrap();
    let words = words.split("\n## ").next().unwrap();
    let mut files: Vec<(Vec<String>, String)> = Vec::new();
    for root in ROOTS {
        let mut found = Vec::new();
        rust_files(Path::new(root), &mut found);
        for file in found {
            let text = fs::read_to_string(&file).unwrap();
            files.push((module(Path::new(root), &file), text));
        }
    }
    let mut missing = Vec::new();
    for quoted in words.split('`').skip(1).step_by(2) {
        let name = quoted.split('(').next().unwrap();
        let path: Vec<&str> = name.split("::").collect();
        if path.len() > 1 && !glossary_name_found(&files, &path) {
            missing.push(name.to_string());
        }
    }
    assert!(
        missing.is_empty(),
        "the glossary names what the code lacks: {missing:?}"
    );
}

/// Whether `text` defines `item`: a type, function, constant, module, field or variant.
fn defines(text: &str, item: &str) -> bool {
    let code: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect();
    [
        "struct", "enum", "trait", "type", "fn", "const", "static", "mod", "use",
    ]
    .iter()
    .any(|k| {
        code.match_indices(&format!("{k} ")).any(|(i, _)| {
            let rest = &code[i + k.len() + 1..];
            let rest = rest.trim_start_matches(|c: char| !c.is_alphanumeric() && c != '_');
            let word: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            word == item || (*k == "use" && rest.split(';').next().unwrap_or("").contains(item))
        })
    }) || code.contains(&format!("pub {item}:"))
        || code.contains(&format!(" {item},"))
        || code.contains(&format!(" {item} {{"))
        || code.contains(&format!(" {item}("))
}

fn glossary_name_found(files: &[(Vec<String>, String)], path: &[&str]) -> bool {
    let under = |module: &[String]| -> Vec<&String> {
        files
            .iter()
            .filter(|(m, _)| m.len() >= module.len() && m[..module.len()] == *module)
            .map(|(_, text)| text)
            .collect()
    };
    if path[0].starts_with(char::is_uppercase) {
        // `Type::member`: the member is defined in a file that defines the type.
        let owners: Vec<&String> = files
            .iter()
            .map(|(_, text)| text)
            .filter(|text| defines(text, path[0]))
            .collect();
        return owners.iter().any(|text| defines(text, path[1]));
    }
    let words: Vec<String> = path.iter().map(|w| w.to_string()).collect();
    let Some(k) = (1..=words.len())
        .rev()
        .find(|&k| files.iter().any(|(m, _)| *m == words[..k]))
    else {
        return false;
    };
    let rest = &path[k..];
    let texts = under(&words[..k]);
    match rest {
        [] => true,
        [item, members @ ..] => texts.iter().any(|text| {
            defines(text, item) && members.iter().all(|m| texts.iter().any(|t| defines(t, m)))
        }),
    }
}

/// The names of a manifest's `[name]` section's entries.
fn manifest_section(path: &str, name: &str) -> Vec<String> {
    let manifest = fs::read_to_string(path).unwrap();
    let Some(start) = manifest.find(&format!("[{name}]")) else {
        return Vec::new();
    };
    let body = &manifest[start..].lines().skip(1).collect::<Vec<_>>();
    body.iter()
        .take_while(|l| !l.starts_with('['))
        .filter(|l| !l.trim_start().starts_with('#') && l.contains('='))
        .map(|l| l.split('=').next().unwrap().trim().to_string())
        .collect()
}

/// The physics crate is one other engines can take: its dependencies are the numbers,
/// saving a state, the solver's threads and vectors on the stack, nothing of the app or
/// the command line.
#[test]
fn the_physics_crate_depends_on_glam_libm_serde_rayon_and_arrayvec_only() {
    let section = |name| manifest_section("physics/Cargo.toml", name);
    assert_eq!(
        section("dependencies"),
        ["glam", "libm", "serde", "rayon", "arrayvec"]
    );
    // Its benches measure with criterion and its properties are tried by proptest;
    // nothing else comes with the tests.
    assert_eq!(section("dev-dependencies"), ["criterion", "proptest"]);
}

/// The lab builds for the browser: pure Rust made for it, none of the app's or the
/// command line's crates.
#[test]
fn the_lab_crate_depends_on_pure_rust_made_for_it() {
    let deps = manifest_section("lab/Cargo.toml", "dependencies");
    let made_for_it = [
        "gyrolab-physics",
        "glam",
        "libm",
        "serde",
        "ron",
        "serde_json",
        "twox-hash",
        "flate2",
        "data-encoding",
        "rayon",
    ];
    assert_eq!(deps, made_for_it);
    assert!(manifest_section("lab/Cargo.toml", "dev-dependencies").is_empty());
}

/// The whole tree of the lab's dependencies, as cargo resolves it, holds none of the
/// app's or the command line's crates (a crate of theirs that came in through another
/// would not show in the manifest).
#[test]
fn the_lab_s_dependency_tree_holds_nothing_of_the_app_or_the_command_line() {
    let out = std::process::Command::new(env!("CARGO"))
        .args([
            "tree",
            "-p",
            "gyrolab-lab",
            "-e",
            "normal",
            "--prefix",
            "none",
            "--offline",
        ])
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8(out.stdout).unwrap();
    let crates: BTreeSet<&str> = tree.lines().filter_map(|l| l.split(' ').next()).collect();
    assert!(
        crates.contains("gyrolab-physics") && crates.contains("ron"),
        "{tree}"
    );
    for theirs in [
        "bevy",
        "bevy_egui",
        "egui",
        "egui_plot",
        "clap",
        "csv",
        "indicatif",
        "tempfile",
        "gif",
        "png",
        "wgpu",
        "x11rb",
        "gyrolab",
    ] {
        assert!(
            !crates.contains(theirs),
            "gyrolab-lab pulls in {theirs}:\n{tree}"
        );
    }
}

/// The code of a file before its test module: cut at the `#[cfg(test)]` whose item, past
/// any attributes and comments, is `mod` (a `#[cfg(test)] use` does not end the code).
fn before_tests(code: &str) -> &str {
    let mut from = 0;
    while let Some(k) = code[from..].find("#[cfg(test)]") {
        let at = from + k;
        let next = (code[at..].lines().skip(1))
            .map(str::trim)
            .find(|l| !(l.is_empty() || l.starts_with("#[") || l.starts_with("//")));
        if next.is_some_and(|l| l.starts_with("mod ")) {
            return &code[..at];
        }
        from = at + 1;
    }
    code
}

/// Calls of a platform transcendental in `code`, as `line: name: text`, but for the lines
/// `allowed` names in full.
fn platform_calls(code: &str, allowed: &[&str]) -> Vec<String> {
    let banned = [
        "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sin_cos", "sinh", "cosh", "tanh",
        "exp", "exp2", "exp_m1", "ln", "ln_1p", "log10", "log2", "powf", "powi", "cbrt", "hypot",
        "mul_add",
    ];
    let mut found = Vec::new();
    for (n, line) in before_tests(code).lines().enumerate() {
        let line = line.split("//").next().unwrap_or("").trim();
        if allowed.contains(&line) {
            continue;
        }
        for name in banned {
            if line.contains(&format!(".{name}(")) || line.contains(&format!("f64::{name}(")) {
                found.push(format!("{}: {name}: {line}", n + 1));
            }
        }
    }
    found
}

/// The same bits on every platform: the physics and the lab call no transcendental of
/// the platform's (natively the C library's, on wasm32 a port of musl's, which may round
/// a last bit differently) and fuse no multiply-add; libm's are the same code
/// everywhere. `powi` is out too: its expansion is the compiler's.
#[test]
fn the_physics_and_the_lab_take_their_transcendentals_from_libm() {
    let allowed = [
        // The `Scalar` trait's own sin and cos (math/scalar.rs): libm's for f64, the
        // chain rule over them for dual numbers.
        "Self::new(self.re.sin(), self.eps * self.re.cos())",
        "Self::new(self.re.cos(), -(self.eps * self.re.sin()))",
        "let (s, co) = (t.sin(), t.cos());",
        // glam's `DVec3::powf`, libm's inside with glam's `libm` feature.
        "let disc = (DVec3::ONE - axis * axis).max(DVec3::ZERO).powf(0.5) * radius;",
        "let half = squares.max(DVec3::ZERO).powf(0.5);",
    ];
    let mut found = Vec::new();
    for root in ["physics/src", "lab/src", "wasm/src"] {
        let mut files = Vec::new();
        rust_files(Path::new(root), &mut files);
        for file in files {
            let text = fs::read_to_string(&file).unwrap();
            let calls = platform_calls(&text, &allowed);
            found.extend(calls.into_iter().map(|c| format!("{}:{c}", file.display())));
        }
    }
    assert!(
        found.is_empty(),
        "call libm's instead:\n{}",
        found.join("\n")
    );
    // The check finds what it looks for, past a test-only import, and not in tests.
    let sample = "#[cfg(test)]\nuse a::b;\nfn f(x: f64) -> f64 {\n    x.atan2(1.0) + f64::exp(x)\n}\n#[cfg(test)]\n// why\n#[allow(x)]\nmod tests {\n    fn g(y: f64) -> f64 { y.sin() }\n}\n";
    let calls = platform_calls(sample, &[]);
    assert_eq!(calls.len(), 2, "{calls:?}");
    assert!(
        calls[0].starts_with("4: atan2") && calls[1].starts_with("4: exp"),
        "{calls:?}"
    );
}

/// The lock's packages: name, version and dependencies (as the lock writes them: a name,
/// or a name and a version where several versions are locked).
fn locked_packages() -> Vec<(String, String, Vec<String>)> {
    let lock = fs::read_to_string("Cargo.lock").unwrap();
    let field = |block: &str, key: &str| {
        let line = block
            .lines()
            .find(|l| l.starts_with(&format!("{key} = ")))?;
        Some(line.split('"').nth(1)?.to_string())
    };
    lock.split("[[package]]")
        .skip(1)
        .filter_map(|block| {
            let deps = block
                .split("dependencies = [")
                .nth(1)
                .map(|d| d.split(']').next().unwrap_or(""))
                .unwrap_or("");
            let deps = deps
                .split('"')
                .skip(1)
                .step_by(2)
                .map(String::from)
                .collect();
            Some((field(block, "name")?, field(block, "version")?, deps))
        })
        .collect()
}

/// `hack/` turns on, for every build, the features the test dependencies turn on in crates
/// Bevy shares; it works only while it names the very versions the others lock. For each
/// of its dependencies the lock holds exactly one version its requirement takes, and a
/// crate other than `hack/` depends on that version: a requirement left behind by an
/// update (a second version locked for the hack alone) would unify nothing, and the
/// README's second command would build Bevy again.
#[test]
fn hack_names_the_versions_the_lock_shares() {
    let packages = locked_packages();
    let section = manifest_section("hack/Cargo.toml", "dependencies");
    let manifest = fs::read_to_string("hack/Cargo.toml").unwrap();
    assert!(!section.is_empty());
    for name in section {
        let line = (manifest.lines())
            .find(|l| l.starts_with(&format!("{name} = ")))
            .unwrap();
        let req = line
            .split("version = \"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        let taken: Vec<&String> = (packages.iter())
            .filter(|(n, v, _)| *n == name && (*v == req || v.starts_with(&format!("{req}."))))
            .map(|(_, v, _)| v)
            .collect();
        assert_eq!(taken.len(), 1, "{name} {req}: locked {taken:?}");
        let version = taken[0];
        let several = packages.iter().filter(|(n, _, _)| *n == name).count() > 1;
        let as_dependency = if several {
            format!("{name} {version}")
        } else {
            name.clone()
        };
        let shared = (packages.iter())
            .filter(|(n, _, _)| n != "gyrolab-hack")
            .any(|(_, _, deps)| deps.contains(&as_dependency));
        assert!(shared, "only hack/ depends on {name} {version}");
    }
}

/// The helpers in `tests/common/` are one module every test file takes, so the compiler's
/// dead-code lint is off there (each test binary uses some of them): instead, every
/// function they offer is called from a test outside them.
#[test]
fn every_shared_test_helper_is_used() {
    let mut helpers = Vec::new();
    rust_files(Path::new("tests/common"), &mut helpers);
    let mut tests = Vec::new();
    rust_files(Path::new("tests"), &mut tests);
    let callers: String = (tests.iter())
        .filter(|p| !p.starts_with("tests/common"))
        .map(|p| fs::read_to_string(p).unwrap())
        .collect();
    let mut unused = Vec::new();
    for helper in helpers {
        let text = fs::read_to_string(&helper).unwrap();
        for name in text.lines().filter_map(|l| {
            let rest = l.strip_prefix("pub fn ")?;
            Some(rest.split(['(', '<']).next()?.to_string())
        }) {
            if !callers.contains(&format!("{name}(")) && !callers.contains(&format!("{name}::<")) {
                unused.push(format!("{}: {name}", helper.display()));
            }
        }
    }
    assert!(unused.is_empty(), "helpers no test calls: {unused:#?}");
}

/// The five words that had two meanings each (and *history*, found with them), held to the
/// one the glossary gives them
/// (docs/architecture.md, *Words*): what the code, the docs and the page must not write,
/// where, and what to write instead.
const ONE_MEANING: [(&str, &[&str], &str); 26] = [
    ("struct Run ", EVERYWHERE, "run: a lane's world is a `Lane`"),
    ("run::Run", EVERYWHERE, "run: `lane::Lane`"),
    ("runs::Runs", EVERYWHERE, "run: `lanes::Lanes`"),
    (
        "runs: Lanes",
        EVERYWHERE,
        "run: the lab's lanes are `lanes`",
    ),
    ("fn runs(", &["lab/src/lab"], "run: `Lanes::lanes`"),
    (
        "enum Step ",
        EVERYWHERE,
        "step: a lesson's item is a `Card`",
    ),
    ("lesson::Step", EVERYWHERE, "step: `lesson::Card`"),
    (
        "enum PageStep",
        EVERYWHERE,
        "step: a page's card is a `PageCard`",
    ),
    (
        "enum StepView",
        EVERYWHERE,
        "step: the live page's card is a `CardView`",
    ),
    (
        "fn step(&self) -> Option<&Card>",
        EVERYWHERE,
        "step: `Walk::card`",
    ),
    ("fn step_ok(", EVERYWHERE, "step: `card_ok`"),
    (
        "Lesson::parts",
        EVERYWHERE,
        "part: a lesson's segment is a take",
    ),
    (
        "fn parts(&self) -> impl Iterator<Item = std::ops",
        EVERYWHERE,
        "part: `Lesson::takes`",
    ),
    ("fn part_run(", EVERYWHERE, "part: `take_run`"),
    (
        "data.parts",
        &["assets/web"],
        "part: a page's segments are its `takes`",
    ),
    (
        "[\"parts\"]",
        &["src", "tests"],
        "part: a page's segments are its `[\"takes\"]`",
    ),
    (
        "\"parts\": [Part]",
        &["docs"],
        "part: a page's segments are its `takes`",
    ),
    (
        "Part(",
        &["assets/web/page"],
        "part: a page's segment is a take (`showTake`)",
    ),
    (
        "state.part",
        &["assets/web/page"],
        "part: the take shown is `state.take`",
    ),
    (
        "frames: Vec<MatrixPose>",
        &["physics/src"],
        "frame: these are `matrix_poses`",
    ),
    (
        "frames: &[MatrixPose]",
        &["physics/src"],
        "frame: these are `matrix_poses`",
    ),
    (" moments =", EVERYWHERE, "moment: `principal`"),
    ("(moments", EVERYWHERE, "moment: `principal`"),
    ("const moments", &["assets/web"], "moment: `principal`"),
    (
        "lab::history",
        EVERYWHERE,
        "history: the plots' series are `lab::series`",
    ),
    (
        "fn history(&self) -> &[Series]",
        EVERYWHERE,
        "history: `Recorders::series`",
    ),
];

/// Every folder of source, tests, docs and the pages' scripts.
const EVERYWHERE: &[&str] = &[
    "physics",
    "lab/src",
    "src",
    "wasm/src",
    "tests",
    "benches",
    "examples",
    "bench-rapier/benches",
    "bench-rapier/examples",
    "docs",
    "assets/web",
];

/// The files under `dirs` (Rust, JavaScript, Markdown) that write `banned`, with its line.
fn slips(banned: &str, dirs: &[&str]) -> Vec<String> {
    let mut files = Vec::new();
    for dir in dirs {
        files_of(Path::new(dir), &["rs", "js", "md"], &mut files);
    }
    let mut found = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.contains(banned) {
                found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn each_of_the_five_words_keeps_one_meaning() {
    let mut found = Vec::new();
    for (banned, dirs, instead) in ONE_MEANING {
        for slip in slips(banned, dirs) {
            // This file names them to ban them.
            if !slip.starts_with("tests/tree.rs") {
                found.push(format!("{slip}  ({instead})"));
            }
        }
    }
    assert!(found.is_empty(), "a word in its other meaning: {found:#?}");
}

/// The check finds a word written in its other meaning.
#[test]
fn the_word_check_finds_a_slip() {
    let dir = std::env::temp_dir().join(format!("gyrolab-words-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("a.js"), "const x = 1;\nshowPart(p);\n").unwrap();
    let found = slips("Part(", &[dir.to_str().unwrap()]);
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].ends_with("a.js:2: showPart(p);"), "{found:?}");
}

/// Each test file is named by the layer it tests (docs/testing.md, *Test files by layer*).
#[test]
fn test_files_are_named_by_their_layer() {
    let layers = ["physics_", "lab_", "lesson_", "cli", "web_", "app"];
    let misnamed: Vec<String> = fs::read_dir("tests")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .filter(|name| name != "tree.rs" && !layers.iter().any(|l| name.starts_with(l)))
        .collect();
    assert!(
        misnamed.is_empty(),
        "test files named by no layer: {misnamed:?}"
    );
}
