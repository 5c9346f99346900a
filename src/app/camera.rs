//! The 3D camera: it orbits, pans and zooms with the mouse, frames every lane when a scene
//! loads ([`super::framing`], or what the scene's `camera` names, following a moving
//! frame if it says so),
//! and draws only in the part of the window the panels leave free. The panels are drawn
//! by a second camera over the whole window.

use bevy::camera::{CameraOutputMode, Viewport, visibility::RenderLayers};
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy::render::render_resource::BlendState;
use bevy::window::PrimaryWindow;
use bevy_egui::input::egui_wants_any_pointer_input;
use bevy_egui::{EguiGlobalSettings, PrimaryEguiContext};

use super::framing::{fit_distance, scene_box};
use super::mouse_order::InputSet;
use super::physics::Sim;
use super::timing::Timed;
use super::view::View;

pub struct CameraPlugin;

impl Plugin for CameraPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<FreeRect>()
            .add_systems(Startup, setup)
            .add_systems(
                Update,
                (
                    frame_scene,
                    orbit_with_mouse
                        .run_if(not(egui_wants_any_pointer_input))
                        .in_set(InputSet::Camera),
                    place,
                    fit_viewport,
                )
                    .chain(),
            );
    }
}

/// Where the camera looks from: yaw and pitch about a focus point, at a distance; in a
/// followed frame's coordinates, if any, so the camera rides with it.
#[derive(Component, Clone, Copy, Debug)]
pub struct Orbit {
    focus: Vec3,
    yaw: f32,
    pitch: f32,
    distance: f32,
    follow: Option<usize>,
}

/// The part of the window, in logical pixels, that the panels leave for the 3D view.
#[derive(Resource, Default)]
pub struct FreeRect(pub Option<Rect>);

fn setup(mut commands: Commands, mut egui: ResMut<EguiGlobalSettings>) {
    // The panels get their own camera: the 3D camera's viewport shrinks to the free
    // area, and an egui context on it would shrink with it.
    egui.auto_create_primary_context = false;
    commands.spawn((
        Camera3d::default(),
        Orbit {
            focus: Vec3::ZERO,
            yaw: 0.0,
            pitch: -0.42,
            distance: 3.0,
            follow: None,
        },
        Transform::default(),
    ));
    commands.spawn((
        PrimaryEguiContext,
        Camera2d,
        RenderLayers::none(),
        Camera {
            order: 1,
            output_mode: CameraOutputMode::Write {
                blend_state: Some(BlendState::ALPHA_BLENDING),
                clear_color: ClearColorConfig::None,
            },
            clear_color: ClearColorConfig::Custom(Color::NONE),
            ..default()
        },
    ));
    commands.spawn((
        DirectionalLight {
            illuminance: 12_000.0,
            shadow_maps_enabled: false,
            ..default()
        },
        Transform::from_xyz(3.0, 6.0, 4.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.insert_resource(GlobalAmbientLight {
        brightness: 400.0,
        ..default()
    });
}

/// Frames the scene when it loads, the number of lanes changes, a lesson opens or
/// closes, or the view first has its size; a reset keeps the user's view. A scene's own
/// camera is kept, moved back only as far as the row of lanes needs; otherwise the
/// camera looks at the middle of what the bodies span, from as near as shows it whole.
fn frame_scene(
    sim: Res<Sim>,
    view: Res<View>,
    free: Res<FreeRect>,
    camera: Single<(&mut Orbit, &Projection)>,
    mut framed: Local<Option<(u64, usize, bool, bool)>>,
) {
    let _timed = Timed::start();
    let key = (
        sim.scene_generation(),
        sim.lanes().len(),
        view.lesson.is_some(),
        free.0.is_some(),
    );
    if *framed == Some(key) {
        return;
    }
    *framed = Some(key);
    let (mut orbit, projection) = camera.into_inner();
    let fov = match projection {
        Projection::Perspective(p) => p.fov,
        _ => std::f32::consts::FRAC_PI_4,
    };
    let aspect = free
        .0
        .map_or(16.0 / 9.0, |r| r.width() / r.height().max(1.0));
    let bounds = scene_box(&sim);
    let fit = |focus: Vec3, pitch: f32, bounds| {
        let rotation = Quat::from_euler(EulerRot::YXZ, 0.0, pitch, 0.0);
        fit_distance(bounds, focus, rotation, fov, aspect)
    };
    *orbit = match &sim.scene().camera {
        Some(c) => {
            let (focus, pitch) = (c.focus.as_vec3(), -(c.pitch_deg as f32).to_radians());
            // The row only: a followed frame's bodies move off from where they start.
            let row = (
                Vec3::new(bounds.0.x, focus.y, focus.z),
                Vec3::new(bounds.1.x, focus.y, focus.z),
            );
            let row_needs = if sim.lanes().len() > 1 {
                fit(focus, pitch, row)
            } else {
                0.0
            };
            Orbit {
                focus,
                yaw: 0.0,
                pitch,
                distance: (c.distance as f32).max(row_needs),
                follow: c
                    .follow
                    .as_ref()
                    .and_then(|name| sim.world().frames().iter().position(|f| &f.name == name)),
            }
        }
        None => {
            let focus = 0.5 * (bounds.0 + bounds.1);
            Orbit {
                focus,
                yaw: 0.0,
                pitch: -0.42,
                distance: fit(focus, -0.42, bounds),
                follow: None,
            }
        }
    };
}

/// Left drag orbits (unless it holds a body), right or middle drag pans, the wheel
/// zooms.
fn orbit_with_mouse(
    buttons: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    sim: Res<Sim>,
    mut orbit: Single<&mut Orbit>,
) {
    let _timed = Timed::start();
    let d = motion.delta;
    if buttons.pressed(MouseButton::Left) && sim.grab().is_none() {
        orbit.yaw -= 0.006 * d.x;
        orbit.pitch = (orbit.pitch - 0.006 * d.y).clamp(-1.55, 1.55);
    }
    if buttons.pressed(MouseButton::Right) || buttons.pressed(MouseButton::Middle) {
        let rotation = Quat::from_euler(EulerRot::YXZ, orbit.yaw, orbit.pitch, 0.0);
        let scale = 0.0015 * orbit.distance;
        orbit.focus += rotation * Vec3::new(-d.x * scale, d.y * scale, 0.0);
    }
    let lines = match scroll.unit {
        MouseScrollUnit::Line => scroll.delta.y,
        MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
    };
    if lines != 0.0 {
        orbit.distance = (orbit.distance * (-0.12 * lines).exp()).clamp(0.05, 500.0);
    }
}

fn place(sim: Res<Sim>, mut camera: Single<(&Orbit, &mut Transform)>) {
    let _timed = Timed::start();
    let (orbit, transform) = &mut *camera;
    let rotation = Quat::from_euler(EulerRot::YXZ, orbit.yaw, orbit.pitch, 0.0);
    // Riding in a followed frame: the orbit is in the frame's coordinates.
    let (origin, turn) = orbit
        .follow
        .and_then(|f| sim.world().frames().get(f))
        .map_or((Vec3::ZERO, Quat::IDENTITY), |f| {
            let t = &f.global.transform;
            (t.translation.as_vec3(), t.rotation.as_quat())
        });
    transform.rotation = turn * rotation;
    transform.translation = origin + turn * (orbit.focus + rotation * Vec3::Z * orbit.distance);
}

fn fit_viewport(
    free: Res<FreeRect>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut camera: Single<&mut Camera, With<Camera3d>>,
) {
    let _timed = Timed::start();
    let Some(rect) = free.0 else { return };
    let scale = window.scale_factor();
    let window_size = UVec2::new(window.physical_width(), window.physical_height());
    let position = (rect.min * scale).as_uvec2().min(window_size);
    let size = ((rect.size() * scale).as_uvec2()).min(window_size - position);
    if size.x < 16 || size.y < 16 {
        return;
    }
    let viewport = Viewport {
        physical_position: position,
        physical_size: size,
        ..default()
    };
    let same = camera.viewport.as_ref().is_some_and(|v| {
        v.physical_position == viewport.physical_position
            && v.physical_size == viewport.physical_size
    });
    if !same {
        camera.viewport = Some(viewport);
    }
}
