//! A row of one's own through the `UserRow` trait: the gear of `examples/gear.rs` holds
//! two wheels on hinges to ω_a = −r·ω_b while a motor spins the big one up.

#[path = "../examples/gear.rs"]
#[allow(dead_code)]
mod gear;

#[test]
fn a_gear_row_couples_two_wheels_at_their_ratio() {
    let r = gear::RADII.1 / gear::RADII.0;
    let spins = gear::spins(3.0);
    let (_, _, last_b) = *spins.last().unwrap();
    assert!(
        (last_b - 1.0).abs() < 1e-3,
        "the motor's wheel turns at {last_b} rad/s"
    );
    for (t, a, b) in spins {
        assert!(
            (a + r * b).abs() < 1e-3 * (1.0 + b.abs()),
            "t = {t}: ω_a = {a}, ω_b = {b}, ratio {}",
            a / b
        );
    }
}
