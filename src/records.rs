//! The lab's records and rows written out: [`RecordWriter`] writes the records of
//! `gyrolab simulate` and of the app's export as CSV (RFC 4180 quoting, by the `csv`
//! crate) or JSON lines; [`export_csv`] writes a lab's recording; [`lesson_csv`] a
//! lesson's walk. The lab hands values; writing them is the callers' (it builds for the
//! browser, where there are no files).

use std::fmt::Write as _;
use std::io::{self, BufWriter, Write};

use crate::lab::export::ExportStates;
use crate::lab::records::{CSV_HEADER, Record, VALUE_KEYS};
use crate::lesson::run::csv_rows;
use crate::lesson::walk::Walk;
use crate::world::World;

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

/// A lab's recording as CSV text, lane after lane, one record per body per recorded step
/// (the app's export, in the columns of `gyrolab simulate`). A record with a value that
/// is not finite (which a run that failed there may have recorded) is left out: the
/// export holds numbers only.
pub fn export_csv<'a>(
    export: &ExportStates,
    worlds: impl IntoIterator<Item = &'a World>,
) -> String {
    let mut out = RecordWriter::csv(Vec::new());
    export.for_each_record(worlds, |record| {
        let _ = out.write(record);
    });
    let bytes = out.finish().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

/// A lesson's walk as CSV with a header ([`crate::lesson::run::CSV_COLUMNS`]), quoted as
/// `simulate`'s records are.
pub fn lesson_csv(walk: &Walk, out: impl Write) -> io::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    for row in csv_rows(walk) {
        w.write_record(&row)?;
    }
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Scene;

    /// The app's export quotes a body name holding a comma, a quote or a line break, so a
    /// CSV reader finds every column in place.
    #[test]
    fn the_export_keeps_the_columns_of_an_awkward_name() {
        let mut world = Scene::load("free-body").unwrap().build();
        world.bodies_mut()[0].name = "a,b \"c\"\nd".into();
        let mut recording = ExportStates::default();
        recording.record(0, &world);
        world.advance(0.01).unwrap();
        recording.record(0, &world);
        let text = export_csv(&recording, [&world]);
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let header: Vec<&str> = reader.headers().unwrap().iter().collect();
        assert_eq!(header.join(","), CSV_HEADER);
        let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(records.len(), 2);
        for r in &records {
            assert_eq!(r.len(), 23);
            assert_eq!(&r[1], "a,b \"c\"\nd");
            assert!(r[19].parse::<f64>().unwrap() > 0.0, "the energy column");
        }
    }

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
