//! gyrolab's lab for JavaScript, as plain `extern "C"` functions over numbers and one
//! shared buffer, with no generated glue: a page from `file://` holds the module's bytes
//! and instantiates them with no imports, and nothing pins a wasm-bindgen-cli version
//! (docs/wasm.md says why).
//!
//! Text goes in through [`gl_alloc`]: JavaScript writes UTF-8 (a request or an input as
//! JSON) there and passes the pointer and length. Text comes out through one buffer:
//! after a call, [`gl_out_ptr`] and [`gl_out_len`] give what it wrote (JSON, a set-up
//! code, or the reason a call was refused). Numbers (poses) come out as `f64`s through
//! [`gl_poses`]. Labs are kept by handle ([`labs`]). A call that traps (out of memory)
//! leaves the module unusable: instantiate it again.

pub mod check;
pub mod labs;
pub mod lesson_view;

use std::cell::RefCell;

thread_local! {
    /// The last text a call gave back.
    static OUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The last poses asked for.
    static POSES: RefCell<Vec<f64>> = const { RefCell::new(Vec::new()) };
}

/// Keeps `text` as the call's output.
fn put(text: &str) {
    OUT.with(|o| {
        let mut o = o.borrow_mut();
        o.clear();
        o.extend_from_slice(text.as_bytes());
    });
}

/// The output of a call that may be refused: 0 and the text, or -1 and the reason.
fn answer(result: Result<String, String>) -> i32 {
    match result {
        Ok(text) => {
            put(&text);
            0
        }
        Err(reason) => {
            put(&reason);
            -1
        }
    }
}

/// The UTF-8 text JavaScript wrote at `ptr`.
///
/// # Safety
/// `ptr` and `len` are a buffer [`gl_alloc`] gave, written by the caller.
unsafe fn text_at(ptr: *const u8, len: usize) -> Result<String, String> {
    if len == 0 {
        return Ok(String::new());
    }
    // SAFETY: the caller passes a live buffer of `len` bytes from gl_alloc (non-null:
    // a buffer of no bytes was answered above).
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    String::from_utf8(bytes.to_vec()).map_err(|e| format!("not UTF-8: {e}"))
}

/// A buffer of `len` bytes for the caller to write text into; give it back with
/// [`gl_free`].
#[unsafe(no_mangle)]
pub extern "C" fn gl_alloc(len: usize) -> *mut u8 {
    let mut buffer = vec![0u8; len].into_boxed_slice();
    let ptr = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    ptr
}

/// Gives back a buffer from [`gl_alloc`].
///
/// # Safety
/// `ptr` and `len` are exactly what one call of [`gl_alloc`] gave, not freed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gl_free(ptr: *mut u8, len: usize) {
    // SAFETY: the pointer and length are those of a boxed slice leaked by gl_alloc.
    drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) });
}

/// Where the last call's text output starts.
#[unsafe(no_mangle)]
pub extern "C" fn gl_out_ptr() -> *const u8 {
    OUT.with(|o| o.borrow().as_ptr())
}

/// The last call's text output's length in bytes.
#[unsafe(no_mangle)]
pub extern "C" fn gl_out_len() -> usize {
    OUT.with(|o| o.borrow().len())
}

/// Makes a lab from a JSON request (see [`labs::LabRequest`]); its handle, or -1 with the
/// reason in the output.
///
/// # Safety
/// `ptr`, `len`: a buffer from [`gl_alloc`] holding the request.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gl_lab_new(ptr: *const u8, len: usize) -> i32 {
    // SAFETY: passed on from the caller's contract.
    let made = unsafe { text_at(ptr, len) }.and_then(|t| labs::open(&t));
    match made {
        Ok(handle) => i32::try_from(handle).unwrap_or(-1),
        Err(reason) => {
            put(&reason);
            -1
        }
    }
}

/// Drops a lab.
#[unsafe(no_mangle)]
pub extern "C" fn gl_lab_free(handle: u32) {
    labs::close(handle);
}

/// Applies an input (the lab's `Input` as JSON) to a lab: 0, or -1 with the reason.
///
/// # Safety
/// `ptr`, `len`: a buffer from [`gl_alloc`] holding the input.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gl_apply(handle: u32, ptr: *const u8, len: usize) -> i32 {
    // SAFETY: passed on from the caller's contract.
    let text = unsafe { text_at(ptr, len) };
    answer(
        text.and_then(|t| labs::apply(handle, &t))
            .map(|()| String::new()),
    )
}

/// Takes up to `steps` physics steps of a lab (fewer where a lesson holds it): how many
/// were taken, or -1 for no such lab.
#[unsafe(no_mangle)]
pub extern "C" fn gl_step(handle: u32, steps: u32) -> i32 {
    labs::step(handle, steps).map_or(-1, |n| i32::try_from(n).unwrap_or(i32::MAX))
}

/// Writes a lab's poses where [`gl_poses_ptr`] points: for each lane, then the ghost,
/// each body's position and orientation (x, y, z, then the quaternion's i, j, k, w); their count of `f64`s,
/// or -1 for no such lab.
#[unsafe(no_mangle)]
pub extern "C" fn gl_poses(handle: u32) -> i32 {
    match labs::poses(handle) {
        Some(poses) => POSES.with(|p| {
            let n = poses.len();
            *p.borrow_mut() = poses;
            i32::try_from(n).unwrap_or(-1)
        }),
        None => -1,
    }
}

/// Writes a lab's drawn joints' anchors where [`gl_poses_ptr`] points (in place of the
/// poses): for each lane, each joint's two ends (6 numbers, NaN once broken); their count,
/// or -1 for no such lab.
#[unsafe(no_mangle)]
pub extern "C" fn gl_joint_ends(handle: u32) -> i32 {
    match labs::joint_ends(handle) {
        Some(ends) => POSES.with(|p| {
            let n = ends.len();
            *p.borrow_mut() = ends;
            i32::try_from(n).unwrap_or(-1)
        }),
        None => -1,
    }
}

/// Where the poses of the last [`gl_poses`] start.
#[unsafe(no_mangle)]
pub extern "C" fn gl_poses_ptr() -> *const f64 {
    POSES.with(|p| p.borrow().as_ptr())
}

/// A lab's state as JSON in the output ([`labs::State`]): 0, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn gl_state(handle: u32) -> i32 {
    answer(labs::state(handle))
}

/// What a view draws of a lab (lanes, shapes, ground), as JSON in the output: 0, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn gl_drawing(handle: u32) -> i32 {
    answer(labs::drawing(handle))
}

/// The built-in scenes, lessons and integrators, as JSON in the output.
#[unsafe(no_mangle)]
pub extern "C" fn gl_catalog() -> i32 {
    answer(Ok(labs::catalog()))
}

/// The dock's plots of the run so far as JSON in the output, their series thinned to fit
/// `bytes` (time and value as base64 of little-endian f32): 0, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn gl_plots(handle: u32, bytes: u32) -> i32 {
    answer(labs::plots(handle, bytes as usize))
}

/// The set-up code of what a lab shows, in the output: 0, or -1 with the reason.
#[unsafe(no_mangle)]
pub extern "C" fn gl_setup_code(handle: u32) -> i32 {
    answer(labs::setup_code(handle))
}

/// Answers the question a lesson's lab shows (choice from 0): 0, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn gl_answer(handle: u32, choice: u32) -> i32 {
    answer(labs::answer(handle, choice as usize).map(|()| String::new()))
}

/// The lesson walked on a lab as JSON in the output ([`lesson_view::LessonView`]): 0, or
/// -1 with the reason.
#[unsafe(no_mangle)]
pub extern "C" fn gl_lesson(handle: u32) -> i32 {
    answer(labs::lesson(handle))
}

/// Back to a lesson's step before: 0, or -1 with the reason.
#[unsafe(no_mangle)]
pub extern "C" fn gl_back(handle: u32) -> i32 {
    answer(labs::back(handle).map(|()| String::new()))
}

/// Shows physics step `step` of the recording (simulated again from a keyframe): 1 if
/// it got there, 0 if not, -1 for no such lab.
#[unsafe(no_mangle)]
pub extern "C" fn gl_seek(handle: u32, step: f64) -> i32 {
    let step = (step.is_finite() && step >= 0.0).then_some(step as u64);
    labs::seek(handle, Some(step.unwrap_or(0))).map_or(-1, i32::from)
}

/// One physics step back along the recording: 1 if taken, 0 if not, -1 for no such lab.
#[unsafe(no_mangle)]
pub extern "C" fn gl_step_back(handle: u32) -> i32 {
    labs::seek(handle, None).map_or(-1, i32::from)
}

/// Picks the body of lane `lane` under the ray from `(ox, oy, oz)` along `(dx, dy, dz)`
/// (lane coordinates): 0 with `{"grab": …, "t": …}` in the output, or -1 with why.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn gl_pick(
    handle: u32,
    lane: u32,
    ox: f64,
    oy: f64,
    oz: f64,
    dx: f64,
    dy: f64,
    dz: f64,
) -> i32 {
    let (origin, dir) = (glam::DVec3::new(ox, oy, oz), glam::DVec3::new(dx, dy, dz));
    answer(labs::pick(handle, lane as usize, origin, dir))
}

/// Measures a lesson's readout shown again, on the run as it stands: 0, or -1 with why.
#[unsafe(no_mangle)]
pub extern "C" fn gl_measure_again(handle: u32) -> i32 {
    answer(labs::measure_again(handle).map(|()| String::new()))
}

/// Replays up to `steps` recorded physics steps from the moment shown (the timeline's
/// replay): how many, or -1 for no such lab.
#[unsafe(no_mangle)]
pub extern "C" fn gl_replay(handle: u32, steps: u32) -> i32 {
    labs::replay(handle, steps).map_or(-1, |n| i32::try_from(n).unwrap_or(i32::MAX))
}

/// Goes on to a lesson's next step: 0, or -1 with the reason.
#[unsafe(no_mangle)]
pub extern "C" fn gl_next(handle: u32) -> i32 {
    answer(labs::next(handle).map(|()| String::new()))
}

/// Runs one of the comparison's runs ([`check::run`]) and writes its digest to the
/// output: 0, or -1 with the reason.
///
/// # Safety
/// `ptr`, `len`: a buffer from [`gl_alloc`] holding the run's name.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gl_check(ptr: *const u8, len: usize) -> i32 {
    // SAFETY: passed on from the caller's contract.
    answer(unsafe { text_at(ptr, len) }.and_then(|name| check::run(&name)))
}
