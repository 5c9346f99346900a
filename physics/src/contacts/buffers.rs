//! Buffers a step's stages fill and empty again, kept from step to step so that a step
//! allocates nothing once the world has reached its size (Box2D v3 hands its stages an
//! arena for the same reason: Catto, Box2D v3, `arena_allocator.c`). Each is cleared where it is used;
//! nothing in them outlives the stage that filled it.

/// The detection's and the sleep stage's index buffers (the solver keeps its own in its
/// `StepState`, detection its proxies and manifolds in its `FoundBuffers`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Buffers {
    /// Body indices: the awake ones a stage walks (the sleep stage: the bodies it walks).
    pub(crate) awake: Vec<u32>,
    /// Proxy indices: those made again in this detection.
    pub(crate) remade: Vec<u32>,
    /// Contact indices: those a stage tries.
    pub(crate) contacts: Vec<usize>,
    /// The sleep stage's links between awake bodies.
    pub(crate) links: Vec<(u32, u32)>,
    /// The sleep stage's island roots, and each island's calmest timer.
    pub(crate) roots: Vec<u32>,
    pub(crate) calm: Vec<f64>,
    /// The bodies that fell asleep in this step.
    pub(crate) fell_asleep: Vec<usize>,
    /// The bodies whose sleep timers tick, and how fast each moved.
    pub(crate) ticking: Vec<usize>,
    pub(crate) speeds: Vec<f64>,
    /// Per body: whether the sweep may move it.
    pub(crate) free: Vec<bool>,
}
