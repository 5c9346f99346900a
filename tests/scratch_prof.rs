use gyrolab::scene::Scene;
#[test]
fn diag_prof() {
    let n: usize = std::env::var("N")
        .map(|v| v.parse().unwrap())
        .unwrap_or(1000);
    let mut scene = Scene::load("pile").unwrap();
    scene.set_generated_size(n).unwrap();
    let base = scene.build();
    let mut total = std::time::Duration::ZERO;
    for _ in 0..4 {
        let mut w = base.clone();
        w.contacts.as_mut().unwrap().settings.sleep = false;
        for _ in 0..90 {
            w.step(1.0 / 60.0).unwrap();
        }
        let t = std::time::Instant::now();
        for _ in 0..150 {
            w.step(1.0 / 60.0).unwrap();
        }
        total += t.elapsed();
    }
    println!("PROF per step {:?}", total / 600);
}
