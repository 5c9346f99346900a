//! Start conditions a lecturer changes in the app: the body (inertia presets, or custom
//! moments drawn as the box with the same inertia), the spin axis by the size of its
//! moment, the spin rate, the perturbation and gravity.

use glam::DVec3;

use crate::body::inertia::{Inertia, Shape};
use crate::scene::{BodyDesc, PartDesc, Scene};
use crate::world::World;

/// Bodies a course uses to show which spins are stable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum InertiaPreset {
    /// The scene's own body, as authored.
    Scene,
    THandle,
    Book,
    Pole,
    Truck,
    /// Principal moments typed in by the user, drawn as their equivalent box.
    Custom,
}

impl InertiaPreset {
    pub const ALL: [Self; 6] = [
        Self::Scene,
        Self::THandle,
        Self::Book,
        Self::Pole,
        Self::Truck,
        Self::Custom,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Self::Scene => "as in the scene",
            Self::THandle => "T-handle",
            Self::Book => "book",
            Self::Pole => "pole",
            Self::Truck => "truck",
            Self::Custom => "custom moments",
        }
    }

    /// The parts of the preset body; `None` keeps the scene's. Custom moments are checked
    /// first, so an impossible body is refused with the reason.
    fn parts(self, custom: DVec3, mass: f64) -> Result<Option<Vec<PartDesc>>, String> {
        let part = |shape, mass, offset, rotation_deg| PartDesc {
            shape,
            mass,
            offset,
            rotation_deg,
        };
        let parts = match self {
            Self::Scene => return Ok(None),
            Self::THandle => vec![
                part(
                    Shape::Cylinder {
                        radius: 0.02,
                        length: 0.4,
                    },
                    0.6,
                    DVec3::ZERO,
                    DVec3::ZERO,
                ),
                part(
                    Shape::Cylinder {
                        radius: 0.02,
                        length: 0.2,
                    },
                    0.3,
                    DVec3::new(0.12, 0.0, 0.0),
                    DVec3::new(0.0, 0.0, 90.0),
                ),
            ],
            Self::Book => vec![part(
                Shape::Box {
                    half_extents: DVec3::new(0.105, 0.148, 0.02),
                },
                0.8,
                DVec3::ZERO,
                DVec3::ZERO,
            )],
            Self::Pole => vec![part(
                Shape::Cylinder {
                    radius: 0.03,
                    length: 1.2,
                },
                1.5,
                DVec3::ZERO,
                DVec3::ZERO,
            )],
            // A toy truck: a long chassis and a cab on top of its front, so the principal
            // axes are tilted from the chassis.
            Self::Truck => vec![
                part(
                    Shape::Box {
                        half_extents: DVec3::new(0.5, 0.12, 0.2),
                    },
                    3.0,
                    DVec3::ZERO,
                    DVec3::ZERO,
                ),
                part(
                    Shape::Box {
                        half_extents: DVec3::new(0.15, 0.15, 0.19),
                    },
                    1.0,
                    DVec3::new(0.33, 0.27, 0.0),
                    DVec3::ZERO,
                ),
            ],
            Self::Custom => vec![part(
                Shape::Box {
                    half_extents: equivalent_box(mass, custom)?,
                },
                mass,
                DVec3::ZERO,
                DVec3::ZERO,
            )],
        };
        Ok(Some(parts))
    }
}

/// Half extents of the box of mass `mass` whose principal moments are `principal`: from
/// `I_x = m(b² + c²)/3` and its two siblings. It exists exactly when the moments satisfy
/// the triangle inequality; a flat plate (a zero side) is drawn with a sliver of thickness.
pub fn equivalent_box(mass: f64, principal: DVec3) -> Result<DVec3, String> {
    Inertia::new(principal).map_err(|e| e.to_string())?;
    if !(mass.is_finite() && mass > 0.0) {
        return Err(format!("mass must be positive, got {mass}"));
    }
    let sum = principal.element_sum();
    let squares = (DVec3::splat(sum) - 2.0 * principal) * (1.5 / mass);
    let half = squares.max(DVec3::ZERO).powf(0.5);
    Ok(half.max(DVec3::splat(1e-3 * half.max_element())))
}

/// Principal axes named by the size of their moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SpinAxis {
    Minor,
    Intermediate,
    Major,
}

impl SpinAxis {
    pub const ALL: [Self; 3] = [Self::Minor, Self::Intermediate, Self::Major];

    pub fn name(self) -> &'static str {
        match self {
            Self::Minor => "smallest I",
            Self::Intermediate => "middle I",
            Self::Major => "largest I",
        }
    }

    fn rank(self) -> usize {
        self as usize
    }
}

/// Body axes sorted by moment, smallest first (stable, so equal moments keep axis order).
fn axes_by_inertia(principal: DVec3) -> [usize; 3] {
    let mut axes = [0, 1, 2];
    axes.sort_by(|&a, &b| principal[a].total_cmp(&principal[b]));
    axes
}

/// The rank by moment (0 smallest) of body axis `axis`.
fn rank_of(principal: DVec3, axis: usize) -> usize {
    axes_by_inertia(principal)
        .iter()
        .position(|&a| a == axis)
        .unwrap_or(0)
}

/// What the app's start panel sets. `apply` turns it into a world; a scene with several
/// bodies takes only the gravity.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Start {
    pub preset: InertiaPreset,
    /// Principal moments for [`InertiaPreset::Custom`], kg·m².
    pub custom: DVec3,
    pub axis: SpinAxis,
    /// Spin rate about `axis`, rad/s.
    pub spin: f64,
    /// Angular velocity about another axis, rad/s: the seed of the instability.
    pub perturbation: f64,
    pub gravity: DVec3,
    /// The scene's own axis and perturbation direction (body axes), kept so the defaults
    /// rebuild the scene exactly.
    scene_axis: SpinAxis,
    scene_direction: DVec3,
}

impl Start {
    /// The start conditions the scene describes, read from its first body.
    pub fn of_scene(scene: &Scene) -> Self {
        let world = scene.build();
        let body = &world.bodies()[0];
        let principal = body.props.inertia.principal();
        let omega = body.state.body_omega(&body.props);
        let spin_axis = omega.abs().max_position();
        let axis = SpinAxis::ALL[rank_of(principal, spin_axis)];
        let mut rest = omega;
        rest[spin_axis] = 0.0;
        Self {
            preset: InertiaPreset::Scene,
            custom: principal,
            axis,
            spin: omega[spin_axis],
            perturbation: rest.length(),
            gravity: scene.gravity,
            scene_axis: axis,
            scene_direction: rest.normalize_or_zero(),
        }
    }

    /// The world to run, or why these conditions are impossible.
    pub fn apply(&self, scene: &Scene) -> Result<World, String> {
        if !(self.spin.is_finite() && self.perturbation.is_finite() && self.gravity.is_finite()) {
            return Err("spin, perturbation and gravity must be finite".into());
        }
        let mut scene = scene.clone();
        scene.gravity = self.gravity;
        if scene.bodies.len() != 1 || !scene.generate.is_empty() {
            return Ok(scene.build());
        }
        let first: &mut BodyDesc = &mut scene.bodies[0];
        let mass: f64 = first.parts.iter().map(|p| p.mass).sum();
        if let Some(parts) = self.preset.parts(self.custom, mass)? {
            first.parts = parts;
        }
        scene.validate()?;
        let mut world = scene.build();
        let body = &mut world.bodies_mut()[0];
        let principal = body.props.inertia.principal();
        let axes = axes_by_inertia(principal);
        let spin_axis = axes[self.axis.rank()];
        let direction = if self.preset == InertiaPreset::Scene && self.axis == self.scene_axis {
            self.scene_direction
        } else {
            // The other axis with the smallest moment.
            let other = axes.into_iter().find(|&a| a != spin_axis).unwrap_or(0);
            DVec3::AXES[other]
        };
        let omega = DVec3::AXES[spin_axis] * self.spin + direction * self.perturbation;
        let orientation = body.state.orientation;
        body.state.angular_momentum = orientation * (principal * omega);
        Ok(world)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::scene_names;

    #[test]
    fn the_equivalent_box_has_the_requested_moments() {
        let (mass, principal) = (2.0, DVec3::new(0.3, 0.5, 0.7));
        let half = equivalent_box(mass, principal).unwrap();
        let tensor = Shape::Box { half_extents: half }.inertia_tensor(mass);
        let got = DVec3::new(tensor.x_axis.x, tensor.y_axis.y, tensor.z_axis.z);
        assert!((got - principal).abs().max_element() < 1e-12, "{got}");
    }

    #[test]
    fn impossible_custom_moments_are_refused_with_the_reason() {
        let scene = Scene::load("dzhanibekov").unwrap();
        let mut start = Start::of_scene(&scene);
        start.preset = InertiaPreset::Custom;
        start.custom = DVec3::new(1.0, 1.0, 3.0);
        let err = start.apply(&scene).unwrap_err();
        assert!(err.contains("triangle inequality"), "{err}");
        start.custom = DVec3::new(1.0, -1.0, 1.0);
        assert!(start.apply(&scene).unwrap_err().contains("positive"));
    }

    #[test]
    fn the_defaults_rebuild_every_scene_exactly() {
        for name in scene_names() {
            let scene = Scene::load(name).unwrap();
            let built = scene.build();
            let applied = Start::of_scene(&scene).apply(&scene).unwrap();
            for (a, b) in built.bodies().iter().zip(applied.bodies()) {
                let (la, lb) = (a.state.angular_momentum, b.state.angular_momentum);
                assert!(
                    (la - lb).length() <= 1e-12 * la.length(),
                    "{name}: {la} {lb}"
                );
                assert_eq!(a.state.orientation, b.state.orientation, "{name}");
            }
        }
    }

    #[test]
    fn every_preset_spins_about_the_chosen_axis() {
        let scene = Scene::load("dzhanibekov").unwrap();
        let mut start = Start::of_scene(&scene);
        start.custom = DVec3::new(0.3, 0.5, 0.7);
        for preset in InertiaPreset::ALL {
            for axis in SpinAxis::ALL {
                start.preset = preset;
                start.axis = axis;
                let world = start.apply(&scene).unwrap();
                let body = &world.bodies()[0];
                let principal = body.props.inertia.principal();
                let omega = body.state.body_omega(&body.props);
                let spun = omega.abs().max_position();
                let rank = rank_of(principal, spun);
                // Equal moments (the pole) make two ranks the same axis class.
                let expected = principal[axes_by_inertia(principal)[axis.rank()]];
                assert_eq!(principal[spun], expected, "{preset:?} {axis:?} rank {rank}");
                assert!((omega.length() - start.spin.hypot(start.perturbation)).abs() < 1e-9);
            }
        }
    }
}
