//! AG-UI input (captures of any AG-UI server): events pass through unchanged, so `check` and
//! `timeline` can read them.

use super::{Adapter, Disposition, RecordKind};
use crate::input::Record;
use crate::model::ModelEvent;

pub struct AguiPassthrough;

impl Adapter for AguiPassthrough {
    fn feed(&mut self, rec: &Record, kind: &RecordKind, out: &mut Vec<ModelEvent>) -> Disposition {
        match kind {
            RecordKind::Agui => {
                out.push(ModelEvent::Native(rec.value().clone()));
                Disposition::Mapped
            }
            _ => Disposition::Bad("expected an AG-UI event in an AG-UI capture".into()),
        }
    }

    fn finish(&mut self, _out: &mut Vec<ModelEvent>) {}
}
