//! One output record per body per written step, in CSV or JSON lines.

use std::fmt::Write as _;
use std::io::{self, BufWriter, Write};

use crate::integrators::Integrator;
use glam::DVec3;

use crate::body::Body;
use crate::world::World;

pub const CSV_HEADER: &str =
    "t,body,integrator,px,py,pz,qw,qx,qy,qz,wx,wy,wz,wbx,wby,wbz,lx,ly,lz,energy,vx,vy,vz";

/// The columns of one record; every float is printed at full (round-trip) precision.
#[derive(Clone, Debug, PartialEq)]
pub struct Record<'a> {
    pub t: f64,
    pub body: &'a str,
    pub integrator: Integrator,
    pub values: [f64; 20],
}

/// In the order of [`CSV_HEADER`]: columns added later go at its end, since scripts read
/// the columns by position.
const VALUE_KEYS: [&str; 20] = [
    "px", "py", "pz", "qw", "qx", "qy", "qz", "wx", "wy", "wz", "wbx", "wby", "wbz", "lx", "ly",
    "lz", "energy", "vx", "vy", "vz",
];

impl<'a> Record<'a> {
    pub fn of_world(world: &'a World) -> impl Iterator<Item = Record<'a>> {
        world
            .bodies()
            .iter()
            .map(move |b| Self::of_body(world.time(), world.integrator(), world.gravity(), b))
    }

    /// One body at time `t`; the app's export builds records from recorded states with it.
    pub fn of_body(t: f64, integrator: Integrator, gravity: DVec3, b: &'a Body) -> Self {
        let s = &b.state;
        let (p, q, v) = (s.position, s.orientation, s.velocity);
        let (w, wb, l) = (
            s.world_omega(&b.props),
            s.body_omega(&b.props),
            s.angular_momentum,
        );
        Record {
            t,
            body: &b.name,
            integrator,
            values: [
                p.x,
                p.y,
                p.z,
                q.w,
                q.x,
                q.y,
                q.z,
                w.x,
                w.y,
                w.z,
                wb.x,
                wb.y,
                wb.z,
                l.x,
                l.y,
                l.z,
                b.energy(gravity),
                v.x,
                v.y,
                v.z,
            ],
        }
    }

    /// The first column whose value is not finite, if any.
    pub fn non_finite(&self) -> Option<&'static str> {
        if !self.t.is_finite() {
            return Some("t");
        }
        VALUE_KEYS
            .iter()
            .zip(self.values)
            .find(|(_, v)| !v.is_finite())
            .map(|(k, _)| *k)
    }
}

/// Why a record was not written.
#[derive(Debug)]
pub enum RecordError {
    /// The output could not be written.
    Io(io::Error),
    /// A value is NaN or infinite; nothing of the record was written.
    NonFinite { column: &'static str },
}

impl From<io::Error> for RecordError {
    fn from(e: io::Error) -> Self {
        Self::Io(e)
    }
}

impl From<csv::Error> for RecordError {
    fn from(e: csv::Error) -> Self {
        Self::Io(io_error(e))
    }
}

/// The I/O error inside a CSV error, its kind intact (a closed pipe stays `BrokenPipe`).
fn io_error(e: csv::Error) -> io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        other => io::Error::other(format!("{other:?}")),
    }
}

/// Writes records as CSV (header first, fields quoted where they need it [RFC 4180]) or as
/// JSON lines, and refuses any record with a value that is not finite, so the output never
/// holds NaN or inf (which is not JSON). Floats are printed in Rust's shortest form that
/// reads back exactly.
pub struct RecordWriter<W: Write> {
    sink: Sink<W>,
    /// Whether the CSV header is still to be written.
    header: bool,
    /// A reused buffer for one formatted field.
    field: String,
}

enum Sink<W: Write> {
    Csv(Box<csv::Writer<W>>),
    Jsonl(BufWriter<W>),
}

impl<W: Write> RecordWriter<W> {
    /// CSV with [`CSV_HEADER`] as its first line (written with the first record, or by
    /// [`RecordWriter::finish`] if there is none).
    pub fn csv(out: W) -> Self {
        Self {
            sink: Sink::Csv(Box::new(csv::Writer::from_writer(out))),
            header: true,
            field: String::new(),
        }
    }

    /// One JSON object per line.
    pub fn jsonl(out: W) -> Self {
        Self {
            sink: Sink::Jsonl(BufWriter::new(out)),
            header: false,
            field: String::new(),
        }
    }

    pub fn write(&mut self, record: &Record) -> Result<(), RecordError> {
        if let Some(column) = record.non_finite() {
            return Err(RecordError::NonFinite { column });
        }
        self.write_header()?;
        let field = &mut self.field;
        match &mut self.sink {
            Sink::Csv(w) => {
                let mut number = |w: &mut Box<csv::Writer<W>>, v: f64| {
                    field.clear();
                    let _ = write!(field, "{v}");
                    w.write_field(field.as_bytes())
                };
                number(w, record.t)?;
                w.write_field(record.body)?;
                w.write_field(record.integrator.name())?;
                for v in record.values {
                    number(w, v)?;
                }
                w.write_record(None::<&[u8]>)?;
            }
            Sink::Jsonl(w) => {
                // serde_json escapes the body name; the floats are finite, and Rust's
                // shortest round-trip form of a finite float is valid JSON.
                let name = serde_json::to_string(record.body).map_err(io::Error::from)?;
                field.clear();
                let _ = write!(
                    field,
                    "{{\"t\":{},\"body\":{name},\"integrator\":\"{}\"",
                    record.t, record.integrator
                );
                for (k, v) in VALUE_KEYS.iter().zip(record.values) {
                    let _ = write!(field, ",\"{k}\":{v}");
                }
                field.push_str("}\n");
                w.write_all(field.as_bytes())?;
            }
        }
        Ok(())
    }

    fn write_header(&mut self) -> io::Result<()> {
        if let (true, Sink::Csv(w)) = (self.header, &mut self.sink) {
            w.write_record(CSV_HEADER.split(',')).map_err(io_error)?;
            self.header = false;
        }
        Ok(())
    }

    /// The output written to.
    pub fn get_ref(&self) -> &W {
        match &self.sink {
            Sink::Csv(w) => w.get_ref(),
            Sink::Jsonl(w) => w.get_ref(),
        }
    }

    /// Writes out what is buffered (and the CSV header, if no record came).
    pub fn flush(&mut self) -> io::Result<()> {
        self.write_header()?;
        match &mut self.sink {
            Sink::Csv(w) => w.flush(),
            Sink::Jsonl(w) => w.flush(),
        }
    }

    /// Flushes what is buffered and gives the output back.
    pub fn finish(mut self) -> io::Result<W> {
        self.write_header()?;
        match self.sink {
            Sink::Csv(w) => w.into_inner().map_err(|e| e.into_error()),
            Sink::Jsonl(w) => w.into_inner().map_err(|e| e.into_error()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Scene;

    /// A velocity that is not finite is refused like any other value: nothing of the
    /// record is written (its energy, computed from it, is the first column to show it).
    #[test]
    fn a_velocity_that_is_not_finite_writes_nothing() {
        let mut world = Scene::load("bounce").unwrap().build();
        let mut out = RecordWriter::csv(Vec::new());
        out.write(&Record::of_world(&world).next().unwrap())
            .unwrap();
        out.flush().unwrap();
        let written = out.get_ref().len();
        assert!(written > CSV_HEADER.len());
        let finite = Record::of_world(&world).next().unwrap();
        assert_eq!(
            &finite.values[17..],
            &world.bodies()[0].state.velocity.to_array()
        );
        world.bodies_mut()[0].state.velocity.z = f64::NAN;
        let record = Record::of_world(&world).next().unwrap();
        assert!(matches!(
            out.write(&record),
            Err(RecordError::NonFinite { column: "energy" })
        ));
        out.flush().unwrap();
        assert_eq!(out.get_ref().len(), written);
        let mut without_energy = record.clone();
        without_energy.values[16] = 0.0;
        assert_eq!(without_energy.non_finite(), Some("vz"));
    }
}
