//! The dock's plots of a recorded run, as the app's dock shows them for that kind of
//! scene ([`DockKind`]): a free body's energy and momentum errors and its ω; a contact
//! scene's energies, contact points and deepest penetration; a moving frame's inertial
//! forces on a rider, its measurement against the textbook's, and the energies; a
//! mechanism's measurement against its formula and the energies. Each series is the
//! lab's own recording, thinned to at most [`MOST_SAMPLES`]. The solver's time per stage
//! is left out: it is this machine's wall time, not the run's.

use serde::{Serialize, Serializer};

use crate::hierarchy::InertialForces;
use crate::lab::Lab;
use crate::lab::dock::DockKind;
use crate::lab::mechanism::Mechanism;
use crate::lab::series::{Sample, Stamped};
use crate::palette::{self, hex};

/// Samples a series keeps in a page: more than a plot a few hundred pixels wide shows.
pub const MOST_SAMPLES: usize = 500;

#[derive(Clone, Debug, Serialize)]
pub struct Plot {
    pub title: String,
    /// Plotted as log10 |y|.
    pub log: bool,
    pub series: Vec<PlotLine>,
}

#[derive(Clone, Debug, Serialize)]
pub struct PlotLine {
    pub name: String,
    pub color: String,
    pub dashed: bool,
    /// Times, s, and values, as base64 of little-endian f32.
    #[serde(serialize_with = "base64_f64_as_f32")]
    pub t: Vec<f64>,
    #[serde(serialize_with = "base64_f64_as_f32")]
    pub y: Vec<f64>,
}

fn base64_f64_as_f32<S: Serializer>(values: &[f64], s: S) -> Result<S::Ok, S::Error> {
    let bytes: Vec<u8> = (values.iter())
        .flat_map(|&v| (v as f32).to_le_bytes())
        .collect();
    s.serialize_str(&data_encoding::BASE64.encode(&bytes))
}

impl PlotLine {
    /// The series `samples` read by `value`, thinned evenly to [`MOST_SAMPLES`] (the last
    /// kept).
    fn of<S: Stamped>(
        name: impl Into<String>,
        color: [f32; 3],
        samples: &[S],
        value: impl Fn(&S) -> f64,
    ) -> Self {
        let stride = samples.len().div_ceil(MOST_SAMPLES).max(1);
        let kept = (samples.iter().enumerate())
            .filter(|(k, _)| k.is_multiple_of(stride) || k + 1 == samples.len())
            .map(|(_, s)| s);
        let (t, y) = kept.map(|s| (s.t(), value(s))).unzip();
        Self {
            name: name.into(),
            color: hex(color),
            dashed: false,
            t,
            y,
        }
    }

    /// Thinned evenly to at most `most` samples, the first and the last kept.
    fn thin(&mut self, most: usize) {
        let n = self.t.len();
        if n <= most {
            return;
        }
        let stride = (n - 1).div_ceil(most.saturating_sub(1).max(1));
        let keep = |k: usize| k.is_multiple_of(stride) || k + 1 == n;
        for v in [&mut self.t, &mut self.y] {
            let mut k = 0;
            v.retain(|_| {
                k += 1;
                keep(k - 1)
            });
        }
    }

    fn dashed(self) -> Self {
        Self {
            dashed: true,
            ..self
        }
    }
}

/// Bytes one sample takes in the page: a time and a value, f32, in base64.
const SAMPLE_BYTES: usize = 11;

/// The dock's plots of `lab` as recorded so far, their series thinned to fit `bytes`.
pub fn of(lab: &Lab, bytes: usize) -> Vec<Plot> {
    let mut plots = unthinned(lab);
    let lines = plots.iter().map(|p| p.series.len()).sum::<usize>().max(1);
    let most = (bytes / (lines * SAMPLE_BYTES)).clamp(2, MOST_SAMPLES);
    for line in plots.iter_mut().flat_map(|p| &mut p.series) {
        line.thin(most);
    }
    plots
}

/// The dock's plots, each series at most [`MOST_SAMPLES`].
fn unthinned(lab: &Lab) -> Vec<Plot> {
    match lab.dock().kind() {
        DockKind::FreeBody => free_body(lab),
        DockKind::Contacts => {
            let mut plots = vec![energy(lab)];
            plots.extend(contacts(lab));
            plots
        }
        DockKind::Frames => frames(lab),
        DockKind::Joints => (mechanism(lab).into_iter())
            .chain(std::iter::once(energy(lab)))
            .collect(),
    }
}

/// A lane's colour.
fn lane_color(lab: &Lab, lane: usize) -> [f32; 3] {
    palette::INTEGRATORS[lab.lanes()[lane].integrator() as usize]
}

/// A lane's line in a plot: `what` alone with one lane, else the lane's integrator.
fn lane_name(lab: &Lab, lane: usize, what: &str) -> String {
    match lab.lanes().len() {
        1 => what.to_string(),
        _ => format!("{} {what}", lab.lanes()[lane].integrator().name()),
    }
}

/// ΔE/E and |ΔL|/|L| of each lane and the exact ghost (dashed), and the body ω of the
/// lane the app plots first (midpoint's), with the ghost's dashed.
fn free_body(lab: &Lab) -> Vec<Plot> {
    let history = lab.recorders().series();
    let ghost = lab.ghost().map(|_| lab.recorders().ghost_series());
    let error = |title: &str, pick: fn(&Sample) -> f64| Plot {
        title: title.into(),
        log: true,
        series: (lab.lanes().iter().zip(history))
            .map(|(run, s)| {
                let color = palette::INTEGRATORS[run.integrator() as usize];
                PlotLine::of(run.integrator().name(), color, &s.samples, pick)
            })
            .chain(
                ghost
                    .map(|g| PlotLine::of("exact", palette::GHOST_PLOT, &g.samples, pick).dashed()),
            )
            .collect(),
    };
    let lane = (lab.lanes().iter())
        .position(|r| r.integrator() == crate::integrators::Integrator::Midpoint)
        .unwrap_or(0);
    let omega = (0..3).flat_map(|k| {
        let name = ["ω_x", "ω_y", "ω_z"][k];
        let own = PlotLine::of(name, palette::AXES[k], &history[lane].samples, move |s| {
            s.omega[k]
        });
        let exact = ghost.map(|g| {
            PlotLine::of(
                format!("{name} exact"),
                palette::AXES[k],
                &g.samples,
                move |s| s.omega[k],
            )
            .dashed()
        });
        std::iter::once(own).chain(exact)
    });
    vec![
        error("ΔE/E", |s| s.energy),
        error("|ΔL|/|L|", |s| s.momentum),
        Plot {
            title: format!("body ω (rad/s), {}", lab.lanes()[lane].integrator().name()),
            log: false,
            series: omega.collect(),
        },
    ]
}

/// Each lane's kinetic energy (solid) and gravitational potential energy (dashed), J.
fn energy(lab: &Lab) -> Plot {
    let series = (lab.recorders().dock().energy().iter().enumerate()).flat_map(|(lane, s)| {
        let color = lane_color(lab, lane);
        [
            PlotLine::of(lane_name(lab, lane, "kinetic"), color, &s.samples, |e| {
                e.kinetic
            }),
            PlotLine::of(lane_name(lab, lane, "potential"), color, &s.samples, |e| {
                e.potential
            })
            .dashed(),
        ]
    });
    Plot {
        title: "energy (J): kinetic, potential dashed".into(),
        log: false,
        series: series.collect(),
    }
}

/// Each lane's contact points and deepest penetration (mm).
fn contacts(lab: &Lab) -> [Plot; 2] {
    let contacts = lab.recorders().dock().contacts();
    let per_lane = |what: &str, value: fn(&crate::lab::dock_series::ContactSample) -> f64| {
        (contacts.iter().enumerate())
            .map(|(lane, s)| {
                PlotLine::of(
                    lane_name(lab, lane, what),
                    lane_color(lab, lane),
                    &s.samples,
                    value,
                )
            })
            .collect()
    };
    [
        Plot {
            title: "contact points".into(),
            log: false,
            series: per_lane("points", |s| s.points as f64),
        },
        Plot {
            title: "deepest penetration (mm)".into(),
            log: false,
            series: per_lane("deepest", |s| 1e3 * s.depth),
        },
    ]
}

/// The inertial forces on the rider the dock shows first, the swing plane or circling
/// rate against the textbook's, and the energies where the app's dock shows them (not
/// beside both forces and a readout).
fn frames(lab: &Lab) -> Vec<Plot> {
    let dock = lab.recorders().dock();
    let mut plots = Vec::new();
    if let Some(rider) = dock.riders().get(lab.dock().default_rider()) {
        let name = &lab.world().bodies()[rider.body].name;
        let names = InertialForces::default().named().map(|(n, _)| n);
        plots.push(Plot {
            title: format!("inertial force per kg on {name} (m/s²)"),
            log: false,
            series: (0..4)
                .map(|k| {
                    PlotLine::of(names[k], palette::FORCES[k], &rider.series.samples, |s| {
                        s.magnitudes[k]
                    })
                })
                .collect(),
        });
    }
    let readout = if let Some(p) = dock.pendulum() {
        Some(swing_plane(lab, p))
    } else {
        lab.dock().circling().map(|_| Plot {
            title: "circling rate (rad/s)".into(),
            log: false,
            series: vec![
                PlotLine::of(
                    "measured",
                    palette::MEASURED,
                    &dock.circling().samples,
                    |s| s.measured,
                ),
                PlotLine::of("2Ω/7", palette::FORMULA, &dock.circling().samples, |s| {
                    s.expected
                })
                .dashed(),
            ],
        })
    };
    let energies = plots.is_empty() || readout.is_none();
    plots.extend(readout);
    if energies {
        plots.push(energy(lab));
    }
    plots
}

/// A turning point of a pendulum's swing: its time and the plane's angle, °.
struct Turn(f64, f64);

impl Stamped for Turn {
    fn t(&self) -> f64 {
        self.0
    }
}

/// A Foucault pendulum's swing plane at each turning point from the first, against the
/// textbook's −Ω sin φ·t.
fn swing_plane(lab: &Lab, p: &crate::lab::dock_series::Pendulum) -> Plot {
    let expected = p.expected_rate(lab.world());
    let turns = &p.meter.turns;
    let (t0, a0) = turns.first().copied().unwrap_or_default();
    let measured: Vec<Turn> = (turns.iter())
        .map(|&(t, a)| Turn(t, (a - a0).to_degrees()))
        .collect();
    // At the same moments as the measurement, so the page draws it as far as the
    // student has seen.
    let textbook: Vec<Turn> = (turns.iter())
        .map(|&(t, _)| Turn(t, (expected * (t - t0)).to_degrees()))
        .collect();
    Plot {
        title: "swing plane angle (°)".into(),
        log: false,
        series: vec![
            PlotLine::of("measured", palette::MEASURED, &measured, |s| s.1),
            PlotLine::of("−Ω sin φ·t", palette::FORMULA, &textbook, |s| s.1).dashed(),
        ],
    }
}

/// A mechanism's measurement against its formula.
fn mechanism(lab: &Lab) -> Option<Plot> {
    let (title, formula, scale) = match lab.dock().mechanism()? {
        Mechanism::Piston { .. } => ("piston x (m)", "x(θ)", 1.0),
        Mechanism::Stretch { .. } => ("stretch (%)", "rigid", 100.0),
    };
    let samples = &lab.recorders().dock().mechanism().samples;
    Some(Plot {
        title: title.into(),
        log: false,
        series: vec![
            PlotLine::of("measured", palette::MEASURED, samples, |s| {
                scale * s.measured
            }),
            PlotLine::of(formula, palette::FORMULA, samples, |s| scale * s.expected).dashed(),
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Scene;

    fn plots_after(scene: &str, steps: usize) -> (Lab, Vec<Plot>) {
        let mut lab = Lab::new(Scene::load(scene).unwrap());
        for _ in 0..steps {
            assert!(lab.step());
        }
        // A part's plot bytes in the recorded page (web::budget::PART_PLOT_BYTES).
        let plots = of(&lab, 100_000);
        (lab, plots)
    }

    /// Each kind of scene gets its dock's plots, every series with samples, in time order.
    #[test]
    fn each_dock_gets_its_plots() {
        for (scene, titles) in [
            (
                "dzhanibekov",
                &["ΔE/E", "|ΔL|/|L|", "body ω (rad/s), midpoint"][..],
            ),
            (
                "stack",
                &[
                    "energy (J): kinetic, potential dashed",
                    "contact points",
                    "deepest penetration (mm)",
                ],
            ),
            (
                "foucault",
                &[
                    "inertial force per kg on bob (m/s²)",
                    "swing plane angle (°)",
                ],
            ),
            (
                "slider-crank",
                &["piston x (m)", "energy (J): kinetic, potential dashed"],
            ),
        ] {
            let (_, plots) = plots_after(scene, 600);
            let shown: Vec<&str> = plots.iter().map(|p| p.title.as_str()).collect();
            assert_eq!(shown, titles, "{scene}");
            for line in plots.iter().flat_map(|p| &p.series) {
                assert!(
                    !line.t.is_empty() && line.t.len() == line.y.len(),
                    "{scene} {}",
                    line.name
                );
                assert!(
                    line.t.windows(2).all(|w| w[0] < w[1]),
                    "{scene} {}",
                    line.name
                );
                assert!(
                    line.y.iter().all(|y| y.is_finite()),
                    "{scene} {}",
                    line.name
                );
            }
        }
    }

    /// A series is the lab's own recording, thinned to at most MOST_SAMPLES with its
    /// first and last kept.
    #[test]
    fn a_series_is_the_recording_thinned() {
        let (lab, plots) = plots_after("dzhanibekov", 1500);
        let history = &lab.recorders().series()[0].samples;
        assert!(history.len() > MOST_SAMPLES);
        let line = &plots[0].series[0];
        assert!(line.t.len() <= MOST_SAMPLES + 1, "{}", line.t.len());
        assert_eq!((line.t[0], line.y[0]), (history[0].t, history[0].energy));
        let last = history.last().unwrap();
        assert_eq!(
            (*line.t.last().unwrap(), *line.y.last().unwrap()),
            (last.t, last.energy)
        );
        for (t, y) in line.t.iter().zip(&line.y) {
            let s = history.iter().find(|s| s.t == *t).unwrap();
            assert_eq!(s.energy, *y);
        }
    }

    /// Plots given few bytes are thinned to fit them, each series keeping its ends.
    #[test]
    fn plots_fit_the_bytes_given() {
        let mut lab = Lab::new(Scene::load("dzhanibekov").unwrap());
        for _ in 0..1500 {
            lab.step();
        }
        for bytes in [100_000, 20_000, 3_000] {
            let plots = of(&lab, bytes);
            let samples: usize = plots
                .iter()
                .flat_map(|p| &p.series)
                .map(|l| l.t.len())
                .sum();
            assert!(
                samples * SAMPLE_BYTES <= bytes.max(2 * SAMPLE_BYTES * 15),
                "{bytes}: {samples}"
            );
            let full = &unthinned(&lab)[0].series[0];
            let line = &plots[0].series[0];
            assert_eq!((line.t[0], line.t.last()), (full.t[0], full.t.last()));
        }
    }
}
