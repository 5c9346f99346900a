//! The scenes a saved state must go on from bitwise, one table for both ways of saving
//! one: the lab's moments (tests/lab_moment.rs) and the command line's state files
//! (tests/cli_state_file.rs). Each with the physics steps taken before the save and what it
//! saves that the others do not.

/// (scene, steps before the save, what its state holds).
pub const SAVED_SCENES: [(&str, u64, &str); 9] = [
    (
        "dzhanibekov",
        150,
        "lanes side by side with the exact ghost",
    ),
    ("tumbling-crowd", 100, "many free bodies"),
    ("newtons-cradle", 300, "contacts in a row, bouncing"),
    (
        "tank",
        200,
        "frames, riders, a hinge's motor and the gun, fired once before",
    ),
    ("pile", 300, "islands asleep and awake, warm-start impulses"),
    ("wrecking-ball", 100, "joints, one broken before the save"),
    ("chain", 100, "a chain of ball joints"),
    ("slider-crank", 100, "a motor driving a closed loop"),
    ("elastic-pendulum", 200, "a spring"),
];

/// The steps `scene` takes before its save.
pub fn steps_before_save(scene: &str) -> u64 {
    let (_, steps, _) = SAVED_SCENES.iter().find(|(s, ..)| *s == scene).unwrap();
    *steps
}
