//! The recording: every series the lab records of a run, for the plots, the trails, the
//! export and the dock, kept together: a branch that discards the old future cuts every
//! one at the same moment with one call ([`Recorders::truncate_after`]).

use super::dock::Dock;
use super::dock_series::DockSeries;
use super::export::ExportStates;
use super::lane::Lane;
use super::series::{Sample, Series, Trail};
use super::stage_time::PerStage;
use crate::integrators::Integrator;
use crate::scene::Scene;

#[derive(Clone, Debug, Default)]
pub struct Recorders {
    /// Plot series, one per lane, and the exact ghost's.
    series: Vec<Series>,
    ghost_series: Series,
    /// Paths of ω's tip, per lane and body.
    trails: Vec<Vec<Trail>>,
    /// Every lane's states, for the CSV export.
    export: ExportStates,
    /// Live integrator switches of a single lane, `(time, new integrator)`.
    switches: Vec<(f64, Integrator)>,
    /// The dock's series.
    dock: DockSeries,
}

impl Recorders {
    /// Empty recorders for the lanes of `scene`.
    pub fn new(scene: &Scene, lanes: &[Lane]) -> Self {
        Self {
            series: vec![Series::default(); lanes.len()],
            trails: lanes
                .iter()
                .map(|r| vec![Trail::default(); r.world().bodies().len()])
                .collect(),
            dock: DockSeries::new(scene, lanes),
            ..Self::default()
        }
    }

    /// These recorders with the live integrator switches made before them (a run going
    /// on from a saved moment).
    pub fn with_switches(mut self, switches: Vec<(f64, Integrator)>) -> Self {
        self.switches = switches;
        self
    }

    /// One physics step of every lane that has not stopped on an error, the ghost, and
    /// the dock's readouts.
    pub fn record(&mut self, lanes: &[Lane], ghost: Option<&Lane>, dock: &Dock, stages: &PerStage) {
        for (lane, run) in lanes.iter().enumerate() {
            if run.error().is_none() {
                self.series[lane].record(sample(run));
                for (trail, body) in self.trails[lane].iter_mut().zip(run.world().bodies()) {
                    let s = &body.state;
                    trail.record(s.world_omega(&body.props), s.body_omega(&body.props));
                }
                self.export.record(lane, run.world());
            }
        }
        if let Some(ghost) = ghost.filter(|g| g.error().is_none()) {
            self.ghost_series.record(sample(ghost));
        }
        self.dock.record(dock, lanes, stages);
    }

    /// A live integrator switch at time `t`, for the plots; marked once (a switch
    /// logged at the head is applied again when play goes on from a seek back to it).
    pub fn switched(&mut self, t: f64, integrator: Integrator) {
        if !self.switches.contains(&(t, integrator)) {
            self.switches.push((t, integrator));
        }
    }

    /// Room for the trail of a body added to lane `lane`, which now has `bodies`
    /// bodies (simulated again, the lane keeps the trail it had).
    pub fn add_trail(&mut self, lane: usize, bodies: usize) {
        if self.trails[lane].len() < bodies {
            self.trails[lane].push(Trail::default());
        }
    }

    /// Forgets what was recorded after time `t` (when the cut is at a recorded time)
    /// and the trails' last `gone` points.
    pub fn truncate_after(&mut self, t: Option<f64>, gone: usize) {
        if let Some(t) = t {
            self.dock.truncate_after(t);
            self.series.iter_mut().for_each(|s| s.truncate_after(t));
            self.ghost_series.truncate_after(t);
            self.export.truncate_after(t);
            self.switches.retain(|&(at, _)| at < t);
        }
        for trail in self.trails.iter_mut().flatten() {
            let keep = trail.world.len().saturating_sub(gone);
            trail.world.truncate(keep);
            trail.body.truncate(keep);
        }
    }

    pub fn series(&self) -> &[Series] {
        &self.series
    }

    pub fn ghost_series(&self) -> &Series {
        &self.ghost_series
    }

    pub fn trails(&self) -> &[Vec<Trail>] {
        &self.trails
    }

    pub fn export(&self) -> &ExportStates {
        &self.export
    }

    pub fn switches(&self) -> &[(f64, Integrator)] {
        &self.switches
    }

    /// The dock's series.
    pub fn dock(&self) -> &DockSeries {
        &self.dock
    }
}

fn sample(run: &Lane) -> Sample {
    let body = &run.world().bodies()[0];
    Sample {
        t: run.world().time(),
        energy: run.drift().final_energy,
        momentum: run.drift().momentum,
        omega: body.state.body_omega(&body.props),
    }
}
