//! The whole lab, live, as one web page: the lab's wasm module (scripts/build-wasm)
//! inlined in base64 beside three.js and the page's script (`assets/web/live.*`), which
//! computes every step in the browser through the module's interface (docs/wasm.md).
//! One file that opens from disk with no network.

use std::path::{Path, PathBuf};

use data_encoding::BASE64;
use serde_json::json;

use super::page::THREE;
use crate::scene::{Scene, read::read_bounded, read::utf8, scene_names};

const TEMPLATE: &str = include_str!("../../assets/web/live.html");
const STYLE: &str = include_str!("../../assets/web/live.css");
const SCRIPT: &str = include_str!("../../assets/web/live.js");

/// The module's file: `given`, else `GYROLAB_WASM`, else where scripts/build-wasm puts
/// it beside this program's target directory (`target/wasm/…` for `target/release/`).
pub fn module_path(given: Option<&Path>) -> Result<PathBuf, String> {
    let beside = || {
        let exe = std::env::current_exe().ok()?;
        let target = exe.parent()?.parent()?;
        Some(target.join("wasm/wasm32-unknown-unknown/release/gyrolab_wasm.wasm"))
    };
    let path = (given.map(Path::to_path_buf))
        .or_else(|| std::env::var_os("GYROLAB_WASM").map(PathBuf::from))
        .or_else(beside)
        .filter(|p| p.is_file());
    path.ok_or_else(|| {
        "the live page needs the lab's wasm module, and this build has none: run scripts/build-wasm (docs/wasm.md), or name one with --wasm".into()
    })
}

/// What the page opens first: a built-in scene by name, a scene file by its text
/// (read bounded and checked here, so a bad one is refused before any page is written),
/// or the default scene.
pub fn first_request(name: Option<&str>) -> Result<serde_json::Value, String> {
    let Some(name) = name else {
        return Ok(json!({ "scene": crate::scene::DEFAULT_SCENE }));
    };
    if scene_names().contains(&name) {
        return Ok(json!({ "scene": name }));
    }
    let text =
        utf8(name, read_bounded(name).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
    Scene::parse(name, &text).map_err(|e| e.to_string())?;
    Ok(json!({ "scene_file": { "path": name, "text": text } }))
}

/// The page, with `module`'s bytes and opening as `first` asks.
pub fn html(module: &[u8], first: &serde_json::Value) -> String {
    // A script element's text ends at the first `</`: JSON's `\/` keeps a scene file's
    // text from closing it.
    let first = first.to_string().replace("</", "<\\/");
    // The user's text goes in last, so that nothing in it is taken for a placeholder.
    TEMPLATE
        .replacen("/*gyrolab:style*/", STYLE, 1)
        .replacen("/*gyrolab:wasm*/", &BASE64.encode(module), 1)
        .replacen("/*gyrolab:three*/", THREE, 1)
        .replacen("/*gyrolab:live*/", SCRIPT, 1)
        .replacen("/*gyrolab:open*/", &first, 1)
}
