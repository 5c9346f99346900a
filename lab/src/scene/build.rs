//! A scene's world: each body in its principal frame about its centre of mass, mounted
//! in the world or riding a frame, the frames and the gun, then the contacts and joints.

use std::collections::HashMap;

use glam::DVec3;

use super::schema::euler_deg;
use super::{BodyDesc, Scene, contacts, frames};
use crate::body::Material;
use crate::body::inertia::{Inertia, MassProperties};
use crate::body::{Body, BodyState, MassProps};
use crate::hierarchy::rig::{Carrier, Frame, Mount, Rider};
use crate::hierarchy::{DynamicTransform, Transform};
use crate::world::World;

impl Scene {
    /// The simulation this scene describes. The body frame is the principal frame; parts
    /// are re-expressed in it for rendering.
    pub fn build(&self) -> World {
        let base = self
            .contacts
            .as_ref()
            .map_or(Material::DEFAULT, |c| Material {
                friction: c.friction,
                restitution: c.restitution,
            });
        let frames = frames::build_frames(&self.frames, base);
        let index = frames::frame_index(&self.frames);
        let all = self.all_bodies();
        let mass: Vec<MassProperties> = all.iter().map(|b| self.mass_properties(b)).collect();
        let (bodies, mounts): (Vec<Body>, Vec<Mount>) = all
            .iter()
            .zip(&mass)
            .map(|(b, mp)| body(b, mp, base, (&frames, &index)))
            .unzip();
        let integrator = self.integrator.parse().expect("validated when parsed");
        let mut world = World::new(Vec::new(), self.gravity, integrator);
        for frame in frames {
            world.add_frame(frame);
        }
        for (body, mount) in bodies.into_iter().zip(mounts) {
            world.add_body(body, mount);
        }
        if let Some(gun) = &self.gun {
            let (carrier, at) = match (&gun.frame, &gun.body) {
                (Some(f), _) => (
                    Carrier::Frame(index[f.as_str()]),
                    (gun.muzzle, gun.direction),
                ),
                (None, Some(name)) => {
                    // Bodies live in their principal frame about the centre of mass.
                    let b = all.iter().position(|b| &b.name == name).expect("validated");
                    let to_principal = mass[b].principal_frame.inverse();
                    let at = (
                        to_principal * (gun.muzzle - mass[b].center_of_mass),
                        to_principal * gun.direction,
                    );
                    (Carrier::Body(b), at)
                }
                (None, None) => unreachable!("validated when parsed"),
            };
            frames::add_gun(&mut world, gun, carrier, at);
        }
        // Riders and carried bodies to their world places first: joints are made between
        // the bodies where they are.
        world.sync_hierarchy();
        if let Some(c) = &self.contacts {
            contacts::build(&mut world, c, &self.joints);
        }
        world
    }
}

/// A body of mass properties `mp`, of the scene's material `base` unless it has its own,
/// and where it is mounted among the `frames` (found by name in `index`).
fn body(
    b: &BodyDesc,
    mp: &MassProperties,
    base: Material,
    (frames, index): (&[Frame], &HashMap<&str, usize>),
) -> (Body, Mount) {
    let to_principal = mp.principal_frame.inverse();
    let parts = b
        .parts
        .iter()
        .map(|p| {
            let mut part = p.part();
            part.offset = to_principal * (part.offset - mp.center_of_mass);
            part.rotation = to_principal * part.rotation;
            part
        })
        .collect();
    let props = MassProps {
        mass: mp.mass,
        inertia: Inertia::new(mp.principal).expect("validated when parsed"),
    };
    let authored = euler_deg(b.orientation_deg);
    let position = b.position + authored * mp.center_of_mass;
    let mount = mount(b, position, index);
    let placement = match &mount {
        Mount::Riding(rider) => frames[rider.frame].global.transform,
        _ => Transform::IDENTITY,
    };
    let orientation = (placement.rotation * authored * mp.principal_frame).normalize();
    let mut state = BodyState::from_body_omega(&props, orientation, b.omega);
    if let Mount::Riding(rider) = &mount {
        // A rider's spin, like its velocity, is relative to its frame.
        let carried = frames[rider.frame].global.angular_velocity;
        state.set_world_omega(&props, carried + state.world_omega(&props));
    }
    state.position = position;
    state.velocity = b.velocity;
    let material = Material {
        friction: b.friction.unwrap_or(base.friction),
        restitution: b.restitution.unwrap_or(base.restitution),
    };
    let body = Body {
        name: b.name.clone(),
        props,
        state,
        parts,
        material,
    };
    (body, mount)
}

/// Where a body at `position` (its centre of mass, in the world or in its frame) is
/// mounted: in the world, or riding its frame with its velocity relative to it.
fn mount(b: &BodyDesc, position: DVec3, index: &HashMap<&str, usize>) -> Mount {
    let Some(f) = &b.frame else {
        return Mount::World;
    };
    let local = DynamicTransform {
        velocity: b.velocity,
        ..DynamicTransform::at_rest(Transform {
            translation: position,
            ..Transform::IDENTITY
        })
    };
    Mount::Riding(Box::new(Rider {
        frame: index[f.as_str()],
        local,
        gravity: b.frame_gravity,
        tether: b.tether,
    }))
}
