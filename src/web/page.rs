//! The page itself: the recorded takes, the lesson's steps and what frames the view, as
//! JSON inside the template (`assets/web/page.html`) with its style, its script and
//! three.js (`assets/web/`, with its version and licence): one file that opens from disk
//! with no network.

use serde::Serialize;

use super::record::Recording;
use super::steps::PageCard;
use crate::scene::Scene;
use crate::world::World;

const TEMPLATE: &str = include_str!("../../assets/web/page.html");
const STYLE: &str = include_str!("../../assets/web/page.css");
/// The page's script, one file per concern, joined into one closure here, after what it
/// draws as the live page does (`shapes.js`): its opening
/// and constants, helpers, the data read in, the page's state, the 3D view, the plots,
/// drawing and playback, the lesson panel, the side panel and controls (with the test
/// hooks and the start), and its close.
const SCRIPT: &str = concat!(
    include_str!("../../assets/web/shapes.js"),
    include_str!("../../assets/web/page/open.js"),
    include_str!("../../assets/web/page/helpers.js"),
    include_str!("../../assets/web/page/data.js"),
    include_str!("../../assets/web/page/state.js"),
    include_str!("../../assets/web/page/view.js"),
    include_str!("../../assets/web/page/plots.js"),
    include_str!("../../assets/web/page/playback.js"),
    include_str!("../../assets/web/page/lesson.js"),
    include_str!("../../assets/web/page/controls.js"),
    include_str!("../../assets/web/page/close.js"),
);
/// three.js r187 with its OrbitControls, bundled as one script (assets/web/README.md).
pub(super) const THREE: &str = include_str!("../../assets/web/three-0.187.0-orbit.min.js");

/// Where a page's data starts: the script element the template holds it in.
const DATA_OPENS: &str = r#"<script type="application/json" id="gyrolab-data">"#;

/// The JSON a page carries, as written in it (tests and scripts read a page so).
pub fn data_of(html: &str) -> Option<&str> {
    let from = html.find(DATA_OPENS)? + DATA_OPENS.len();
    let to = from + html[from..].find("</script>")?;
    Some(&html[from..to])
}

/// Bytes of a page that are not its data.
pub fn fixed_bytes() -> usize {
    TEMPLATE.len() + STYLE.len() + SCRIPT.len() + THREE.len()
}

/// What a recorded page holds, as the JSON in its `#gyrolab-data`: this type and the ones
/// it holds ([`Recording`], [`PageCard`], [`Camera`]) are the one description of the
/// data's shape; `assets/web/page/data.js` reads it.
#[derive(Debug, Serialize)]
pub struct Page {
    pub generator: String,
    /// "lesson" or "scene".
    pub kind: &'static str,
    pub title: String,
    pub scene: String,
    /// The scene's one line. Its "What am I seeing?" is left out: it speaks of the app's
    /// arrows and panels, which the page does not have.
    pub description: String,
    /// The set-up code that opens the same thing in the app (`gyrolab --setup CODE`).
    pub setup: String,
    pub camera: Option<Camera>,
    pub takes: Vec<Recording>,
    pub steps: Vec<PageCard>,
}

/// The scene's camera, as the app sets it on load.
#[derive(Debug, Serialize)]
pub struct Camera {
    pub focus: [f64; 3],
    pub distance: f64,
    pub pitch_deg: f64,
    /// The moving frame the camera rides with, by index.
    pub follow: Option<usize>,
}

impl Camera {
    pub fn of(scene: &Scene, world: &World) -> Option<Self> {
        let c = scene.camera.as_ref()?;
        Some(Self {
            focus: c.focus.to_array(),
            distance: c.distance,
            pitch_deg: c.pitch_deg,
            follow: (c.follow.as_ref())
                .and_then(|name| world.frames().iter().position(|f| &f.name == name)),
        })
    }
}

impl Page {
    /// The page as one HTML file; refused where it would be larger than `most` bytes.
    pub fn html(&self, most: usize) -> Result<String, String> {
        // JSON holds `<` only in strings, where `\u003c` reads the same: no `</script>`
        // or `<!--` in the data can end its script early.
        let data = serde_json::to_string(self)
            .map_err(|e| format!("cannot write the page's data: {e}"))?
            .replace('<', "\\u003c");
        let html = fill(
            TEMPLATE,
            &[
                ("{{title}}", &escape(&self.title)),
                ("/*gyrolab:style*/", STYLE),
                ("/*gyrolab:three*/", THREE),
                ("/*gyrolab:data*/", &data),
                ("/*gyrolab:page*/", SCRIPT),
            ],
        );
        match html.len() {
            n if n > most => Err(format!(
                "the page would be {:.1} MB, more than {:.0} MB",
                n as f64 / 1e6,
                most as f64 / 1e6
            )),
            _ => Ok(html),
        }
    }
}

/// `template` with each marker (each there once) replaced by its text: the markers are
/// found in the template alone, so a text holding a marker is not filled in again.
fn fill(template: &str, with: &[(&str, &str)]) -> String {
    let mut at: Vec<(usize, &str, &str)> = (with.iter())
        .map(|&(marker, text)| {
            let i = template
                .find(marker)
                .expect("the template holds every marker");
            (i, marker, text)
        })
        .collect();
    at.sort_by_key(|&(i, _, _)| i);
    let mut out =
        String::with_capacity(template.len() + with.iter().map(|w| w.1.len()).sum::<usize>());
    let mut from = 0;
    for (i, marker, text) in at {
        out.push_str(&template[from..i]);
        out.push_str(text);
        from = i + marker.len();
    }
    out.push_str(&template[from..]);
    out
}

/// Text as HTML shows it literally.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each marker is filled once, where the template has it; a filled-in text that holds
    /// a marker is left as it is.
    #[test]
    fn markers_are_filled_where_the_template_has_them() {
        let out = fill("a{{x}}b/*y*/c", &[("/*y*/", "{{x}}"), ("{{x}}", "1")]);
        assert_eq!(out, "a1b{{x}}c");
        assert!(TEMPLATE.contains(&format!("{DATA_OPENS}/*gyrolab:data*/</script>")));
        for marker in [
            "{{title}}",
            "/*gyrolab:style*/",
            "/*gyrolab:three*/",
            "/*gyrolab:data*/",
            "/*gyrolab:page*/",
        ] {
            assert_eq!(TEMPLATE.matches(marker).count(), 1, "{marker}");
        }
        assert_eq!(escape("<b> & \"q\""), "&lt;b&gt; &amp; &quot;q&quot;");
    }
}
