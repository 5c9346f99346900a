//! The whole lab, live, as one web page: the lab's wasm module (scripts/build-wasm)
//! inlined in base64 beside three.js and the page's script (`assets/web/live.*`), which
//! computes every step in the browser through the module's interface (docs/wasm.md).
//! One file that opens from disk with no network.

use std::path::{Path, PathBuf};

use data_encoding::BASE64;
use serde_json::json;

use super::PageSource;
use super::page::THREE;
use crate::lesson::lesson_names;
use crate::scene::{read::read_bounded, read::utf8, scene_names};

const TEMPLATE: &str = include_str!("../../assets/web/live.html");
const STYLE: &str = include_str!("../../assets/web/live.css");
/// The page's script, after what it draws as the recorded page does (`shapes.js`).
const SCRIPT: &str = concat!(
    include_str!("../../assets/web/shapes.js"),
    include_str!("../../assets/web/live.js"),
);

/// The module's file: `given`, else `GYROLAB_WASM`, else where scripts/build-wasm puts
/// it beside this program's target directory (`target/wasm/…` for `target/release/`).
pub fn module_path(given: Option<&Path>) -> Result<PathBuf, String> {
    let beside = || {
        let exe = std::env::current_exe().ok()?;
        let target = exe.parent()?.parent()?;
        Some(target.join("wasm/wasm32-unknown-unknown/release/gyrolab_wasm.wasm"))
    };
    let named = (given.map(Path::to_path_buf))
        .or_else(|| std::env::var_os("GYROLAB_WASM").map(PathBuf::from));
    match named {
        Some(path) if is_module(&path) => Ok(path),
        Some(path) if !path.is_file() => Err(format!("{}: no such file", path.display())),
        Some(path) => Err(format!(
            "{}: not a WebAssembly module (scripts/build-wasm makes the lab's)",
            path.display()
        )),
        None => beside().filter(|p| is_module(p)).ok_or_else(|| {
            "the live page needs the lab's wasm module, and this build has none: run scripts/build-wasm (docs/wasm.md), or name one with --wasm".into()
        }),
    }
}

/// Whether `path` is a file that starts as a WebAssembly module does (`\0asm`).
fn is_module(path: &Path) -> bool {
    let mut magic = [0u8; 4];
    std::fs::File::open(path).is_ok_and(|mut f| {
        std::io::Read::read_exact(&mut f, &mut magic).is_ok() && &magic == b"\0asm"
    })
}

/// What the page opens, and the files it adds to its menus, as the page reads them:
/// `{"open": REQUEST, "files": [{"kind", "name", "request"}]}`. Each name is a built-in
/// lesson (unless `scene`) or scene, or a lesson or scene file, read bounded and checked
/// here, so that a bad one is refused before any page is written. No name: the default
/// scene.
pub fn opening(names: &[String], scene: bool) -> Result<serde_json::Value, String> {
    let mut files = Vec::new();
    let mut open = None;
    for name in names {
        let request = request_of(name, scene, &mut files)?;
        open.get_or_insert(request);
    }
    let open = open.unwrap_or_else(|| json!({ "scene": crate::scene::DEFAULT_SCENE }));
    Ok(json!({ "open": open, "files": files }))
}

/// The request that opens `name`, a lesson or a scene as `gyrolab web --recorded` takes
/// it ([`PageSource::named`], whose errors it gives); a file is added to `files` too.
fn request_of(
    name: &str,
    scene: bool,
    files: &mut Vec<serde_json::Value>,
) -> Result<serde_json::Value, String> {
    let (kind, builtin) = match PageSource::named(name, scene, None)? {
        PageSource::Lesson(_) => ("lesson", lesson_names().contains(&name)),
        PageSource::Scene { .. } => ("scene", scene_names().contains(&name)),
    };
    if builtin {
        return Ok(json!({ kind: name }));
    }
    let mut file = json!({ "path": name, "text": read_text(name)? });
    // A lesson file's own scene file goes with it: the page has no file system.
    if kind == "lesson" {
        let scene = crate::lesson::load(name).map_err(|e| e.to_string())?.scene;
        if !scene_names().contains(&scene.as_str()) {
            file["scene"] = json!({ "path": scene, "text": read_text(&scene)? });
        }
    }
    let request = json!({ format!("{kind}_file"): file });
    files.push(json!({ "kind": kind, "name": name, "request": request }));
    Ok(request)
}

/// A file's text, read bounded as `gyrolab scene` reads one.
fn read_text(path: &str) -> Result<String, String> {
    let bytes = read_bounded(path).map_err(|e| e.to_string())?;
    utf8(path, bytes).map_err(|e| e.to_string())
}

/// The page, with `module`'s bytes, opening as [`opening`] says.
pub fn html(module: &[u8], opening: &serde_json::Value) -> String {
    // JSON holds `<` only in strings, where `\u003c` reads the same: nothing in a file's
    // text (`</script>`, `<!--`) can end or hold open the script element it is in.
    let opening = opening.to_string().replace('<', "\\u003c");
    // The user's text goes in last, so that nothing in it is taken for a placeholder.
    TEMPLATE
        .replacen("/*gyrolab:style*/", STYLE, 1)
        .replacen("/*gyrolab:wasm*/", &BASE64.encode(module), 1)
        .replacen("/*gyrolab:three*/", THREE, 1)
        .replacen("/*gyrolab:live*/", SCRIPT, 1)
        .replacen("/*gyrolab:open*/", &opening, 1)
}
