//! What a page hands the lab, fuzzed: set-up codes pasted or given in the address, and
//! inputs as JSON with any numbers in them. Each is taken or refused with a reason;
//! none panics, and a lab that took them steps on with finite poses or stops its lane
//! with the reason.

use gyrolab_wasm::labs;
use proptest::prelude::*;
use serde_json::{Value, json};

/// A code made by the lab itself, to mutate.
fn a_code() -> String {
    let handle = labs::open(r#"{"scene": "free-body"}"#).unwrap();
    let code = labs::setup_code(handle).unwrap();
    labs::close(handle);
    code
}

/// Inputs of every kind, their numbers to be replaced.
fn inputs() -> Vec<Value> {
    let grab = json!({ "body": 0, "local": [0.0, 0.0, 0.0], "target": [0.0, 1.0, 0.0] });
    vec![
        json!({ "SetDt": 0.01 }),
        json!({ "SetStepsPerDt": 2 }),
        json!({ "SetFriction": 0.5 }),
        json!({ "Hold": { "lane": 0, "grab": grab } }),
        json!({ "DragTo": [0.0, 2.0, 0.0] }),
        json!("Release"),
        json!({ "Spawn": { "shape": { "Box": { "half_extents": [0.2, 0.2, 0.2] } }, "velocity": [1.0, 0.0, 0.0], "position": null } }),
        json!({ "AddLoad": { "lane": 0, "body": 0, "load": { "force": [0.0, 1.0, 0.0], "torque": [0.0, 0.0, 0.0] } } }),
        json!({ "Compare": { "integrator": "rk4", "on": true } }),
        json!({ "SetMotor": { "joint": 0, "motor": { "speed": 1.0, "max_torque": 5.0 } } }),
        json!("Restart"),
    ]
}

/// `input` with every number replaced by the next of `numbers`, in turn.
fn with_numbers(input: &Value, numbers: &[f64], k: &mut usize) -> Value {
    match input {
        Value::Number(_) => {
            let x = numbers[*k % numbers.len()];
            *k += 1;
            serde_json::Number::from_f64(x).map_or(json!(null), Value::Number)
        }
        Value::Array(a) => Value::Array(a.iter().map(|v| with_numbers(v, numbers, k)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(key, v)| (key.clone(), with_numbers(v, numbers, k)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// After `inputs` and a few steps: every lane's poses finite unless the lane stopped.
fn steps_on_sane(handle: u32) {
    assert!(labs::step(handle, 5).is_some());
    let state: Value = serde_json::from_str(&labs::state(handle).unwrap()).unwrap();
    let lanes = state["lanes"].as_array().unwrap();
    let stopped = lanes.iter().any(|l| !l[2].is_null());
    let poses = labs::poses(handle).unwrap();
    assert!(stopped || poses.iter().all(|x| x.is_finite()), "{state}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_damaged_code_is_refused_or_opens(cut in 0usize..200, byte in any::<u8>(), at in 0usize..200) {
        let mut code = a_code().into_bytes();
        let n = code.len();
        code[at % n] = byte;
        code.truncate(n - cut % n);
        let code = String::from_utf8_lossy(&code).into_owned();
        if let Ok(handle) = labs::open(&json!({ "setup": code }).to_string()) {
            steps_on_sane(handle);
            labs::close(handle);
        }
    }

    #[test]
    fn inputs_with_any_numbers_are_taken_or_refused(
        scene in prop::sample::select(vec!["free-body", "bounce", "tank", "pile", "dzhanibekov"]),
        which in 0usize..11,
        numbers in prop::collection::vec(prop_oneof![
            any::<f64>(),
            Just(f64::NAN),
            Just(f64::INFINITY),
            Just(-1.0),
            Just(0.0),
            Just(1e300),
            -10.0..10.0f64,
        ], 1..8),
    ) {
        let handle = labs::open(&json!({ "scene": scene }).to_string()).unwrap();
        let input = with_numbers(&inputs()[which], &numbers, &mut 0);
        let _ = labs::apply(handle, &input.to_string());
        steps_on_sane(handle);
        labs::close(handle);
    }
}

/// Text that is not an input at all is refused with a reason.
#[test]
fn text_that_is_no_input_is_refused() {
    let handle = labs::open(r#"{"scene": "bounce"}"#).unwrap();
    for text in [
        "",
        "{",
        "null",
        r#"{"SetDt": "fast"}"#,
        r#"{"Nothing": 1}"#,
        "[1,2]",
    ] {
        let err = labs::apply(handle, text).unwrap_err();
        assert!(err.starts_with("input:"), "{text}: {err}");
    }
    assert!(labs::open("{}").is_err() && labs::open(r#"{"scene": "nowhere"}"#).is_err());
    labs::close(handle);
}
