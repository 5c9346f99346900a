//! Reading a lesson: RON parsed and checked, with the scene files' errors (file, line,
//! column, field).

use super::schema::{CONTROLS, Card, Event, Lesson, MOST_CHOICES, Quantity, Setting};
use super::tolerance::Tolerance;
use crate::integrators::Integrator;
use crate::scene::ranges::DURATION;
use crate::scene::{Invalid, Readout, Scene, SceneError, check_step, locate, read};

impl Lesson {
    /// A lesson file by path.
    pub fn open(path: &str) -> Result<Self, SceneError> {
        let text = read::utf8(path, read::read_bounded(path)?)?;
        Self::parse(path, &text)
    }

    /// Parses and checks lesson text; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<Self, SceneError> {
        Self::parse_on(file, text, None)
    }

    /// Parses lesson text and checks it against `scene` (the one a set-up code carries,
    /// where the file the lesson names may not be at hand) or, with none, against the
    /// scene it names.
    pub fn parse_on(file: &str, text: &str, scene: Option<&Scene>) -> Result<Self, SceneError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut lesson: Lesson = locate::from_ron(file, text).map_err(counted_from_one)?;
        lesson.scene = beside(file, &lesson.scene);
        lesson.origin = file.into();
        lesson.text = text.into();
        lesson
            .check(scene)
            .map_err(|problem| counted_from_one(locate::error_at(file, text, problem)))?;
        Ok(lesson)
    }

    /// The lesson's scene, loaded.
    pub fn scene(&self) -> Result<Scene, SceneError> {
        Scene::load(&self.scene)
    }

    /// A readout of one integrator's lane names one of the lesson's integrators.
    fn lane_of(&self, step: &Card) -> Result<(), Invalid> {
        let Card::Readout { quantity, .. } = step else {
            return Ok(());
        };
        let Some(integrator) = quantity.integrator() else {
            return Ok(());
        };
        let not_among = format!("'{integrator}' is not among the lesson's integrators");
        match &self.integrators {
            Some(names) if names.iter().any(|i| i == integrator) => Ok(()),
            Some(names) => Err(Invalid::new(
                "quantity.integrator",
                format!("{not_among} ({})", names.join(", ")),
            )),
            None => Err(Invalid::new(
                "quantity.integrator",
                format!(
                    "{not_among}: it names none; a lesson names its lanes with \
                     integrators: Some([\"{integrator}\", ...])"
                ),
            )),
        }
    }

    /// A height that names no body is the first body's, named so in its label.
    fn name_first_bodies(&mut self, scene: &Scene) {
        let first = scene.bodies.first().map(|b| b.name.clone());
        for step in &mut self.steps {
            if let Card::Readout {
                quantity:
                    Quantity::Height {
                        body: body @ None, ..
                    },
                ..
            } = step
            {
                body.clone_from(&first);
            }
        }
    }

    fn check(&mut self, on: Option<&Scene>) -> Result<(), Invalid> {
        let loaded;
        let scene = match on {
            Some(scene) => scene,
            None => {
                loaded = (self.scene()).map_err(|e| Invalid::new("scene", e.to_string()))?;
                &loaded
            }
        };
        if let Some(dt) = self.dt {
            check_step(dt).map_err(|e| Invalid::new("dt", e))?;
        }
        if let Some(names) = &self.integrators {
            integrators_ok(names).map_err(|e| e.under("integrators"))?;
        }
        if self.steps.is_empty() {
            return Err(Invalid::new("steps", "a lesson needs at least one step"));
        }
        let named = (self.locked.iter().map(|(c, _)| c).enumerate())
            .map(|(i, c)| (format!("locked[{i}]"), c))
            .chain((self.hidden.iter().enumerate()).map(|(i, c)| (format!("hidden[{i}]"), c)));
        for (at, control) in named {
            if !CONTROLS.contains(&control.as_str()) {
                return Err(Invalid::new(
                    at,
                    format!("no control '{control}' (valid: {})", CONTROLS.join(", ")),
                ));
            }
        }
        let (mut until, mut dt) = (0.0, self.dt.unwrap_or(scene.dt));
        for (i, set) in self.set.iter().enumerate() {
            setting_ok(set, scene, &mut dt).map_err(|e| e.under(&format!("set[{i}]")))?;
        }
        for (i, step) in self.steps.iter().enumerate() {
            card_ok(step, scene, (&mut dt, &mut until))
                .and_then(|()| self.lane_of(step))
                .map_err(|e| e.under(&format!("steps[{i}]")))?;
        }
        self.says_something()?;
        self.name_first_bodies(scene);
        Ok(())
    }

    /// Every text shown to the student says something, and no question offers the same
    /// choice twice.
    fn says_something(&self) -> Result<(), Invalid> {
        said("title", &self.title)?;
        for (i, (_, why)) in self.locked.iter().enumerate() {
            said(&format!("locked[{i}][1]"), why)?;
        }
        for (i, step) in self.steps.iter().enumerate() {
            let at = |field: &str| format!("steps[{i}].{field}");
            match step {
                Card::Question { text, choices, .. } => {
                    said(&at("text"), text)?;
                    choices_ok(choices).map_err(|e| e.under(&at("choices")))?;
                }
                Card::Readout { theory, .. } => said(&at("theory"), theory)?,
                Card::Explain { text } | Card::Try { text, .. } => said(&at("text"), text)?,
                Card::Run { .. } => {}
            }
        }
        Ok(())
    }
}

/// A scene path that is not there from the folder gyrolab runs in but is beside the
/// lesson file is read from there: a teacher keeps a lesson and its scene in one folder,
/// and takes the lesson from anywhere.
fn beside(file: &str, scene: &str) -> String {
    let path = std::path::Path::new(scene);
    let builtin = crate::scene::scene_names().contains(&scene);
    if builtin || path.is_absolute() || path.exists() {
        return scene.into();
    }
    match std::path::Path::new(file)
        .parent()
        .map(|dir| dir.join(path))
    {
        Some(near) if near.is_file() => near.to_string_lossy().into_owned(),
        _ => scene.into(),
    }
}

/// An error whose path starts at a step names the step counted from 1, as the CSV,
/// `share --step`, `gyrolab lesson` and the app count them: `steps[2].text` (the file's
/// third step) is shown as `step 3, text`.
fn counted_from_one(error: SceneError) -> SceneError {
    match error {
        SceneError::At {
            file,
            line,
            column,
            mut problem,
        } => {
            problem.path = step_named(&problem.path);
            SceneError::At {
                file,
                line,
                column,
                problem,
            }
        }
        other => other,
    }
}

/// `steps[i]…` as `step i+1, …`; any other path as it is.
fn step_named(path: &str) -> String {
    let Some((index, rest)) = path.strip_prefix("steps[").and_then(|p| p.split_once(']')) else {
        return path.into();
    };
    let Ok(index) = index.parse::<usize>() else {
        return path.into();
    };
    match rest.strip_prefix('.').unwrap_or(rest) {
        "" => format!("step {}", index + 1),
        field => format!("step {}, {field}", index + 1),
    }
}

/// A question's choices: each says something, and none says what one before it says
/// (blanks around it and case aside).
fn choices_ok(choices: &[String]) -> Result<(), Invalid> {
    if !(2..=MOST_CHOICES).contains(&choices.len()) {
        return Err(Invalid::new(
            "",
            format!(
                "a question offers 2 to {MOST_CHOICES} choices (a to z, as `lesson --ask` letters them), not {}",
                choices.len()
            ),
        ));
    }
    let key = |c: &String| c.trim().to_lowercase();
    for (k, choice) in choices.iter().enumerate() {
        let at = format!("[{k}]");
        said(&at, choice)?;
        if let Some(first) = choices[..k].iter().position(|c| key(c) == key(choice)) {
            return Err(Invalid::new(
                at,
                format!("choice {k} repeats choice {first}; each choice must differ"),
            ));
        }
    }
    Ok(())
}

/// Text shown to the student, which must not be empty or only blanks.
fn said(path: &str, text: &str) -> Result<(), Invalid> {
    if text.trim().is_empty() {
        return Err(Invalid::new(path, "must not be empty (or only blanks)"));
    }
    Ok(())
}

/// Integrators run as lanes: at least one, each a name, none the exact solution (the
/// ghost), none twice.
fn integrators_ok(names: &[String]) -> Result<(), Invalid> {
    if names.is_empty() {
        return Err(Invalid::new("", "names no integrator"));
    }
    let mut seen = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let at = format!("[{i}]");
        match name.parse::<Integrator>() {
            Err(e) => return Err(Invalid::new(at, e.to_string())),
            Ok(Integrator::Analytic) => {
                return Err(Invalid::new(
                    at,
                    "the exact solution is the ghost, not a lane",
                ));
            }
            Ok(integrator) => {
                if let Some(first) = seen.iter().position(|&s| s == integrator) {
                    return Err(Invalid::new(
                        at,
                        format!(
                            "integrator {i} repeats integrator {first} ('{}'); each runs once",
                            integrator.name()
                        ),
                    ));
                }
                seen.push(integrator);
            }
        }
    }
    Ok(())
}

/// A "now try" setting in its range, for this scene; a new step becomes `dt`.
fn setting_ok(set: &Setting, scene: &Scene, dt: &mut f64) -> Result<(), Invalid> {
    match set {
        Setting::Dt(step) => {
            check_step(*step).map_err(|e| Invalid::new("Dt", e))?;
            *dt = *step;
        }
        Setting::Integrators(names) => {
            integrators_ok(names).map_err(|e| e.under("Integrators"))?;
        }
        Setting::Friction(f) => {
            crate::scene::ranges::FRICTION.check("Friction", *f)?;
            if scene.contacts.is_none() {
                return Err(Invalid::new("Friction", "the scene has no contacts"));
            }
        }
        Setting::Spin(spin) => crate::scene::ranges::SPIN.check("Spin", *spin)?,
        Setting::Solver(settings) => {
            crate::scene::validate_solver(settings).map_err(|e| e.under("Solver"))?;
            if scene.contacts.is_none() {
                return Err(Invalid::new("Solver", "the scene has no contacts"));
            }
        }
    }
    Ok(())
}

/// The scene's body `body`, listed or generated (a pyramid's `box 1`), or an error at
/// `field` listing the bodies it has, as a scene file's unknown names are listed.
fn body_ok(field: &str, body: &str, scene: &Scene) -> Result<(), Invalid> {
    let all = scene.all_bodies();
    if all.iter().any(|b| b.name == body) {
        return Ok(());
    }
    let names: Vec<&str> = all.iter().map(|b| b.name.as_str()).collect();
    Err(Invalid::new(
        field,
        crate::scene::unknown("body", body, &names),
    ))
}

/// Whether the scene can show `event`: a bounce needs the body and contacts, a flip a
/// single free body, a break a joint that can break, rest contacts that let bodies sleep.
fn event_ok(event: &Event, scene: &Scene) -> Result<(), Invalid> {
    if let Event::Bounce { body } = event {
        body_ok("event.body", body, scene)?;
    }
    let world = scene.build();
    let contacts = world.contacts();
    let (can, needs) = match event {
        Event::Bounce { .. } => (contacts.is_some(), "contacts"),
        Event::Flip => (
            world.bodies().len() == 1 && world.frames().is_empty(),
            "a single free body",
        ),
        Event::Break => (
            contacts.is_some_and(|c| {
                (c.joints().iter()).any(|j| j.break_force.is_some() || j.break_torque.is_some())
            }),
            "a joint with break_force or break_torque",
        ),
        Event::Rest => (
            contacts.is_some_and(|c| c.settings().sleep),
            "contacts with sleeping on",
        ),
    };
    if can {
        Ok(())
    } else {
        Err(Invalid::new(
            "event",
            format!(
                "{} needs a scene with {needs}; '{}' has none",
                event.name(),
                scene.name
            ),
        ))
    }
}

/// The most steps a lesson's runs may take: a lesson is taken in seconds, in the app and
/// in its test.
pub const MAX_STEPS: f64 = 100_000.0;

/// One step, against the scene run at `dt`; `until` is the last run's end, which runs
/// must pass (a "now try" starts the run again, and may change `dt`).
fn card_ok(step: &Card, scene: &Scene, (dt, until): (&mut f64, &mut f64)) -> Result<(), Invalid> {
    match step {
        Card::Question {
            choices, answer, ..
        } => {
            if *answer >= choices.len() {
                return Err(Invalid::new(
                    "answer",
                    format!(
                        "{answer} is not among the {} choices (from 0)",
                        choices.len()
                    ),
                ));
            }
        }
        Card::Run { until: to, event } => {
            DURATION.check("until", *to)?;
            if let Some(event) = event {
                event_ok(event, scene)?;
            }
            if *to <= *until {
                return Err(Invalid::new(
                    "until",
                    format!("{to} s is not after the last run's end, {until} s"),
                ));
            }
            if *to / *dt > MAX_STEPS {
                return Err(Invalid::new(
                    "until",
                    format!(
                        "{to} s at a step of {dt} s is more than {MAX_STEPS} steps, the most a lesson takes"
                    ),
                ));
            }
            *until = *to;
        }
        Card::Readout {
            quantity,
            stated,
            tolerance,
            ..
        } => {
            if !stated.is_finite() {
                return Err(Invalid::new("stated", format!("{stated} is not a number")));
            }
            let (name, unit) = (quantity.name(), quantity.unit().trim());
            Tolerance::read(tolerance, *stated, name, unit)
                .map_err(|e| Invalid::new("tolerance", e))?;
            measurable(quantity, scene).map_err(|e| e.under("quantity"))?;
        }
        Card::Explain { .. } => {}
        Card::Try { set, .. } => {
            setting_ok(set, scene, dt).map_err(|e| e.under("set"))?;
            *until = 0.0;
        }
    }
    Ok(())
}

/// Whether the scene has what `quantity` measures.
fn measurable(quantity: &Quantity, scene: &Scene) -> Result<(), Invalid> {
    let needs = |what: &str| Err(Invalid::new("", what.to_owned()));
    let readout = scene.readout.as_ref();
    match quantity {
        Quantity::FlipPeriod if scene.bodies.len() != 1 || scene.contacts.is_some() => {
            needs("FlipPeriod measures a single free body's flips")
        }
        Quantity::CirclingRate if !matches!(readout, Some(Readout::Circling { .. })) => {
            needs("CirclingRate needs a scene with a Circling readout")
        }
        Quantity::SwingPlanePeriod if !matches!(readout, Some(Readout::Foucault { .. })) => {
            needs("SwingPlanePeriod needs a scene with a Foucault readout")
        }
        Quantity::Time { event } => event_ok(event, scene),
        _ => {
            if let Some(body) = quantity.body() {
                body_ok("body", body, scene)?;
            }
            match quantity.integrator().map(str::parse::<Integrator>) {
                Some(Err(e)) => Err(Invalid::new("integrator", e.to_string())),
                _ => Ok(()),
            }
        }
    }
}
