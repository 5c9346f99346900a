//! Every dynamics formula of the transform hierarchy, checked against the derivatives of
//! the paths it claims to describe: once with nested dual numbers (exact derivatives of
//! `A(t + ε₁ + ε₂)`) and once with central finite differences of the library's own
//! `Transform` composition.

use glam::{DMat3, DQuat, DVec3};
use gyrolab_physics::hierarchy::{Delta, DynamicTransform, Transform};
use gyrolab_physics::math::dual::Dual;
use gyrolab_physics::math::quat;
use gyrolab_physics::math::scalar::{Scalar, V3};
use gyrolab_physics::math::so3;

type H = Dual<Dual<f64>>;

/// A smooth path of a transform: translation and rotation vector as functions of time.
#[derive(Clone, Copy)]
struct Path {
    t0: DVec3,
    t1: DVec3,
    wobble: DVec3,
    phi0: DVec3,
    phi1: DVec3,
    phi2: DVec3,
    scale: f64,
}

const PARENT: Path = Path {
    t0: DVec3::new(1.0, -2.0, 0.5),
    t1: DVec3::new(0.3, 0.8, -0.4),
    wobble: DVec3::new(0.5, -0.2, 0.9),
    phi0: DVec3::new(0.4, -0.7, 1.1),
    phi1: DVec3::new(0.9, 0.3, -0.5),
    phi2: DVec3::new(-0.6, 0.8, 0.2),
    scale: 1.6,
};

const CHILD: Path = Path {
    t0: DVec3::new(-0.7, 0.2, 1.3),
    t1: DVec3::new(-0.5, 0.1, 0.6),
    wobble: DVec3::new(0.3, 0.7, -0.4),
    phi0: DVec3::new(-1.2, 0.1, 0.3),
    phi1: DVec3::new(0.2, -1.1, 0.7),
    phi2: DVec3::new(0.5, 0.4, -0.9),
    scale: 0.7,
};

fn c<S: Scalar>(x: f64) -> S {
    S::from_f64(x)
}

fn v3<S: Scalar>(v: DVec3) -> V3<S> {
    V3::from_dvec3(v)
}

/// A placement as the generic tests need it: translation and the three columns of `R S`.
struct Placement<S> {
    translation: V3<S>,
    columns: [V3<S>; 3],
}

impl Path {
    fn translation<S: Scalar>(&self, t: S) -> V3<S> {
        let w = self.wobble;
        v3::<S>(self.t0)
            + v3::<S>(self.t1).scale(t)
            + V3::new(
                (t * c(1.3)).sin() * c(w.x),
                (t * c(0.7)).cos() * c(w.y),
                (t * t) * c(w.z),
            )
    }
    fn phi<S: Scalar>(&self, t: S) -> V3<S> {
        v3::<S>(self.phi0) + v3::<S>(self.phi1).scale(t) + v3::<S>(self.phi2).scale(t * t)
    }
    fn placement<S: Scalar>(&self, t: S) -> Placement<S> {
        let phi = self.phi(t);
        let col = |i: usize| so3::rotate(phi, v3::<S>(DVec3::AXES[i] * self.scale));
        Placement {
            translation: self.translation(t),
            columns: [col(0), col(1), col(2)],
        }
    }
    /// The library transform at an f64 time.
    fn transform(&self, t: f64) -> Transform {
        Transform {
            translation: self.translation(t).re(),
            rotation: quat::exp(self.phi(t).re()),
            scale: self.scale,
        }
    }
}

fn apply<S: Scalar>(p: &Placement<S>, x: V3<S>) -> V3<S> {
    p.columns[0].scale(x.x) + p.columns[1].scale(x.y) + p.columns[2].scale(x.z)
}

/// `A₂ ∘ A₁`, written generically and independently of the library.
fn compose<S: Scalar>(a2: &Placement<S>, a1: &Placement<S>) -> Placement<S> {
    Placement {
        translation: apply(a2, a1.translation) + a2.translation,
        columns: a1.columns.map(|col| apply(a2, col)),
    }
}

/// `A⁻¹`: `J⁻¹ = Jᵀ/S²` for `J = R S`.
fn invert<S: Scalar>(a: &Placement<S>, scale: f64) -> Placement<S> {
    let s2 = c::<S>(scale * scale);
    let row = |i: usize| {
        let [x, y, z] = a.columns;
        let pick = |v: V3<S>| [v.x, v.y, v.z][i];
        V3::new(pick(x) / s2, pick(y) / s2, pick(z) / s2)
    };
    let columns = [row(0), row(1), row(2)];
    let inv = Placement {
        translation: V3::new(c(0.0), c(0.0), c(0.0)),
        columns,
    };
    let t = apply(&inv, a.translation);
    Placement {
        translation: V3::new(-t.x, -t.y, -t.z),
        columns,
    }
}

/// The dynamic transform of a path at `t0`, every derivative from one hyper-dual
/// evaluation: `ω = ½ Σ yᵢ × ẏᵢ`, `α = ½ Σ yᵢ × ÿᵢ` over the unit columns `yᵢ` of `R`.
fn dual_dynamics(path: impl Fn(H) -> Placement<H>, scale: f64, t0: f64) -> DynamicTransform {
    let t = Dual::new(Dual::variable(t0), Dual::constant(1.0));
    let p = path(t);
    let part = |v: V3<H>, k: usize| {
        let pick = |d: H| [d.re.re, d.re.eps, d.eps.eps][k];
        DVec3::new(pick(v.x), pick(v.y), pick(v.z))
    };
    let cols = |k: usize| p.columns.map(|col| part(col, k) / scale);
    let (y, dy, ddy) = (cols(0), cols(1), cols(2));
    let omega = 0.5 * (0..3).map(|i| y[i].cross(dy[i])).sum::<DVec3>();
    let alpha = 0.5 * (0..3).map(|i| y[i].cross(ddy[i])).sum::<DVec3>();
    DynamicTransform {
        transform: Transform {
            translation: part(p.translation, 0),
            rotation: DQuat::from_mat3(&DMat3::from_cols(y[0], y[1], y[2])),
            scale,
        },
        velocity: part(p.translation, 1),
        accel: part(p.translation, 2),
        angular_velocity: omega,
        angular_accel: alpha,
    }
}

/// The same by central differences of library transforms.
fn numeric_dynamics(path: impl Fn(f64) -> Transform, t0: f64) -> DynamicTransform {
    let h = 1e-4;
    let at = |t: f64| path(t);
    let cols = |a: Transform| DVec3::AXES.map(|e| a.rotation * e);
    let omega_at = |t: f64| {
        let (y, yp, ym) = (cols(at(t)), cols(at(t + h)), cols(at(t - h)));
        0.5 * (0..3)
            .map(|i| y[i].cross((yp[i] - ym[i]) / (2.0 * h)))
            .sum::<DVec3>()
    };
    let (a, ap, am) = (at(t0), at(t0 + h), at(t0 - h));
    DynamicTransform {
        transform: a,
        velocity: (ap.translation - am.translation) / (2.0 * h),
        accel: (ap.translation - 2.0 * a.translation + am.translation) / (h * h),
        angular_velocity: omega_at(t0),
        angular_accel: (omega_at(t0 + h) - omega_at(t0 - h)) / (2.0 * h),
    }
}

fn assert_close(what: &str, got: &DynamicTransform, want: &DynamicTransform, tol: f64) {
    let pairs = [
        (
            "translation",
            got.transform.translation,
            want.transform.translation,
        ),
        ("velocity", got.velocity, want.velocity),
        ("accel", got.accel, want.accel),
        (
            "angular velocity",
            got.angular_velocity,
            want.angular_velocity,
        ),
        ("angular accel", got.angular_accel, want.angular_accel),
    ];
    for (name, g, w) in pairs {
        let err = (g - w).length() / w.length().max(1.0);
        assert!(err < tol, "{what}: {name} {g} vs {w} (error {err:e})");
    }
    let angle = quat::log(got.transform.rotation.inverse() * want.transform.rotation).length();
    assert!(angle < tol, "{what}: rotation off by {angle:e} rad");
    assert!((got.transform.scale - want.transform.scale).abs() < tol);
}

const TIMES: [f64; 3] = [0.0, 0.37, 1.9];

fn parent(t: f64) -> DynamicTransform {
    dual_dynamics(|t| PARENT.placement(t), PARENT.scale, t)
}

fn child(t: f64) -> DynamicTransform {
    dual_dynamics(|t| CHILD.placement(t), CHILD.scale, t)
}

#[test]
fn composition_is_the_derivative_of_the_composed_path() {
    for t in TIMES {
        let formula = parent(t) * child(t);
        let dual = dual_dynamics(
            |t| compose(&PARENT.placement(t), &CHILD.placement(t)),
            PARENT.scale * CHILD.scale,
            t,
        );
        assert_close("compose vs dual", &formula, &dual, 1e-12);
        let numeric = numeric_dynamics(|t| PARENT.transform(t) * CHILD.transform(t), t);
        assert_close("compose vs finite differences", &formula, &numeric, 1e-6);
    }
}

#[test]
fn inverse_is_the_derivative_of_the_inverted_path() {
    for t in TIMES {
        let formula = parent(t).inverse();
        let dual = dual_dynamics(
            |t| invert(&PARENT.placement(t), PARENT.scale),
            1.0 / PARENT.scale,
            t,
        );
        assert_close("inverse vs dual", &formula, &dual, 1e-12);
        let numeric = numeric_dynamics(|t| PARENT.transform(t).inverse(), t);
        assert_close("inverse vs finite differences", &formula, &numeric, 1e-6);
    }
}

#[test]
fn global_to_local_recovers_the_child_path() {
    for t in TIMES {
        let global = dual_dynamics(
            |t| compose(&PARENT.placement(t), &CHILD.placement(t)),
            PARENT.scale * CHILD.scale,
            t,
        );
        let local = parent(t).local_of(&global);
        assert_close("local_of vs the child's own path", &local, &child(t), 1e-12);
        assert_close(
            "local_of vs inverse composition",
            &local,
            &(parent(t).inverse() * global),
            1e-12,
        );
    }
}

#[test]
fn a_transform_composed_with_its_inverse_has_no_dynamics() {
    let a = parent(0.37);
    for id in [a * a.inverse(), a.inverse() * a] {
        assert_close("A ∘ A⁻¹", &id, &DynamicTransform::IDENTITY, 1e-13);
    }
}

#[test]
fn composition_is_associative_down_a_three_level_tree() {
    let (a, b, c) = (parent(0.2), child(0.9), parent(1.4).inverse());
    assert_close("associativity", &((a * b) * c), &(a * (b * c)), 1e-12);
}

fn delta() -> Delta {
    Delta {
        velocity: DVec3::new(0.4, -1.1, 0.3),
        accel: DVec3::new(-0.2, 0.5, 0.9),
        angular_velocity: DVec3::new(0.7, 0.2, -0.6),
        angular_accel: DVec3::new(0.1, -0.8, 0.4),
    }
}

fn changed(mut d: DynamicTransform, by: Delta) -> DynamicTransform {
    d.apply(by);
    d
}

fn global_change(before: &DynamicTransform, after: &DynamicTransform) -> Delta {
    Delta {
        velocity: after.velocity - before.velocity,
        accel: after.accel - before.accel,
        angular_velocity: after.angular_velocity - before.angular_velocity,
        angular_accel: after.angular_accel - before.angular_accel,
    }
}

fn assert_delta(what: &str, got: Delta, want: Delta) {
    let pairs = [
        (got.velocity, want.velocity),
        (got.accel, want.accel),
        (got.angular_velocity, want.angular_velocity),
        (got.angular_accel, want.angular_accel),
    ];
    for (g, w) in pairs {
        assert!(
            (g - w).length() < 1e-12 * w.length().max(1.0),
            "{what}: {g} vs {w}"
        );
    }
}

#[test]
fn a_local_change_becomes_the_global_change_composition_gives() {
    let (p, ch) = (parent(0.37), child(0.37));
    let before = p * ch;
    let after = p * changed(ch, delta());
    assert_delta(
        "local → global",
        p.delta_to_global(delta()),
        global_change(&before, &after),
    );
    assert_delta(
        "global → local → global",
        p.delta_to_local(p.delta_to_global(delta())),
        delta(),
    );
}

#[test]
fn a_parent_change_is_inherited_as_composition_predicts() {
    let (p, ch) = (parent(1.9), child(1.9));
    let before = p * ch;
    let after = changed(p, delta()) * ch;
    assert_delta(
        "inherited",
        p.inherited_delta(&ch, delta()),
        global_change(&before, &after),
    );
}

#[test]
fn an_impulse_changes_only_the_world_velocity_of_the_child() {
    let (p, ch, mass) = (parent(0.37), child(0.37), 2.5);
    let dp = DVec3::new(3.0, -1.0, 0.5);
    let after = p * changed(ch, p.impulse_to_local(dp, mass));
    assert_delta(
        "impulse",
        global_change(&(p * ch), &after),
        Delta::velocity(dp / mass),
    );
}

#[test]
fn counteraction_keeps_a_child_moving_as_before_when_its_parent_stops() {
    let (p, ch) = (parent(0.37), child(0.37));
    let dv = -p.velocity;
    let stopped = changed(p, Delta::velocity(dv));
    let kept = stopped * changed(ch, p.counteract(dv));
    assert_delta(
        "counteracted",
        global_change(&(p * ch), &kept),
        Delta::default(),
    );
    // Without it the child is dragged along.
    let dragged = stopped * ch;
    assert!((dragged.velocity - (p * ch).velocity - dv).length() < 1e-12);
}

#[test]
fn constant_acceleration_advance_follows_the_exact_motion() {
    // Parallel ω and α: the rotation angle is ω₀t + ½αt² about a fixed axis.
    let axis = DVec3::new(1.0, -2.0, 0.5).normalize();
    let start = DynamicTransform {
        transform: Transform::IDENTITY,
        velocity: DVec3::new(1.0, 0.0, 2.0),
        accel: DVec3::new(0.0, -9.81, 0.3),
        angular_velocity: axis * 1.5,
        angular_accel: axis * 0.4,
    };
    let t = 2.0;
    let mut d = start;
    for _ in 0..200 {
        d = d.advanced(t / 200.0);
    }
    let x = start.velocity * t + 0.5 * start.accel * t * t;
    let angle = 1.5 * t + 0.2 * t * t;
    assert!((d.transform.translation - x).length() < 1e-12);
    let off = quat::log(d.transform.rotation.inverse() * DQuat::from_axis_angle(axis, angle));
    assert!(off.length() < 1e-12, "{off}");
}
