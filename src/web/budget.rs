//! How densely a page records its runs: 30 frames a second of simulated time where the
//! page stays under its size, fewer where many bodies would make it larger, and for a
//! scene (not a lesson, whose readouts need every second) fewer seconds below a floor of
//! frames a second. Each cut is said in the page.

/// The most bytes a page may have: a class downloads it, a teacher mails it.
pub const MOST_BYTES: usize = 5_000_000;

/// Frames a second of simulated time, where the size allows: smooth playback.
pub const FRAMES_A_SECOND: f64 = 30.0;

/// Below this a scene records fewer seconds rather than fewer frames: motion at under
/// five frames a second no longer reads as motion.
pub const FEWEST_FRAMES_A_SECOND: f64 = 5.0;

/// All the takes' plots together at most: each take's series are thinned to its share.
pub const PLOT_BYTES: usize = 1_000_000;

/// One take's plots at most (about fifteen series of [`super::plots::MOST_SAMPLES`]).
pub const TAKE_PLOT_BYTES: usize = 100_000;

/// Room kept for the JSON around the data.
const MARGIN: usize = 20_000;

/// The bytes a take's plots may use, among `takes`.
pub fn plot_bytes(takes: usize) -> usize {
    (PLOT_BYTES / takes.max(1)).min(TAKE_PLOT_BYTES)
}

/// The bytes left for the frames of `takes` takes: the page's fixed files (`fixed`), each
/// take's own JSON without its frames (`take`: lanes, shapes), its plots' share, and the
/// lesson's text (`text`) taken out of [`MOST_BYTES`].
pub fn frame_bytes_left(fixed: usize, takes: usize, take: usize, text: usize) -> usize {
    let taken = fixed + takes * (take + plot_bytes(takes)) + text + MARGIN;
    MOST_BYTES.saturating_sub(taken)
}

/// How a take is recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct Sampling {
    /// Physics steps between frames.
    pub every: u64,
    /// The simulated time recorded, s.
    pub until: f64,
    /// What was cut, said in the page.
    pub note: Option<String>,
}

/// What a take has to record.
#[derive(Clone, Copy, Debug)]
pub struct Need {
    /// The physics step, s.
    pub h: f64,
    /// The time to record, s.
    pub duration: f64,
    /// Numbers in one frame (every run's bodies' poses, the moving frames' poses).
    pub values: usize,
    /// Bodies in every run, for the note.
    pub bodies: usize,
    /// Whether seconds may be cut (a scene) or not (a lesson's readouts need them).
    pub may_cut: bool,
}

/// Bytes one frame takes in the page: its numbers as base64 of f32, and its time.
fn frame_bytes(values: usize) -> usize {
    (values * 4).div_ceil(3) * 4 + 24
}

/// The plan for `need` within `bytes`.
pub fn plan(need: Need, bytes: usize) -> Sampling {
    let most_frames = (bytes / frame_bytes(need.values)).max(2) as f64;
    // The first frame is at t = 0: the rest share the duration.
    let wanted = need.duration * FRAMES_A_SECOND + 1.0;
    if most_frames >= wanted {
        return Sampling {
            every: ((1.0 / (FRAMES_A_SECOND * need.h)).ceil() as u64).max(1),
            until: need.duration,
            note: None,
        };
    }
    let rate = (most_frames - 1.0) / need.duration;
    let why = format!(
        "{} bodies in all would make the page larger than {} MB",
        need.bodies,
        MOST_BYTES / 1_000_000
    );
    if rate >= FEWEST_FRAMES_A_SECOND || !need.may_cut {
        // Rounded up, so the frames fit.
        let every = ((1.0 / (rate * need.h)).ceil() as u64).max(1);
        let shown = 1.0 / (every as f64 * need.h);
        return Sampling {
            every,
            until: need.duration,
            note: Some(format!(
                "Recorded at {shown:.1} frames a second of simulated time, not {FRAMES_A_SECOND}: {why}."
            )),
        };
    }
    let every = ((1.0 / (FEWEST_FRAMES_A_SECOND * need.h)).ceil() as u64).max(1);
    let until = (most_frames - 1.0) * every as f64 * need.h;
    Sampling {
        every,
        until,
        note: Some(format!(
            "Recorded for its first {until:.1} s of {:.1} s, at {FEWEST_FRAMES_A_SECOND} frames a second: {why}.",
            need.duration
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn need(values: usize, may_cut: bool) -> Need {
        Need {
            h: 0.001,
            duration: 30.0,
            values,
            bodies: values / 7,
            may_cut,
        }
    }

    /// A few bodies get every thirtieth of a second; many get fewer frames, and a
    /// scene of very many fewer seconds: each plan's frames fit the bytes given.
    #[test]
    fn frames_fit_the_bytes_and_cuts_are_said() {
        let bytes = 3_000_000;
        let few = plan(need(7 * 30, false), bytes);
        assert_eq!((few.every, few.until, few.note), (34, 30.0, None));
        for (values, may_cut) in [(7 * 300, false), (7 * 1000, true), (7 * 1000, false)] {
            let p = plan(need(values, may_cut), bytes);
            let frames = (p.until / (p.every as f64 * 0.001)).floor() + 1.0;
            assert!(
                frames * frame_bytes(values) as f64 <= bytes as f64,
                "{values}: {p:?}"
            );
            assert!(p.note.is_some(), "{p:?}");
            assert_eq!(p.until < 30.0, may_cut, "{p:?}");
        }
    }
}
