//! What explain reads of a raw record: a v3 event's parts, and what a record is.

use super::*;

/// What explain reads of a v3 event, from its typed read: `params.node`, `params.namespace`'s
/// parts, and of `params.data` the `event` and `delta.type` (data read whole: of a list, the
/// first item).
pub struct V3View<'a> {
    pub(super) method: &'a str,
    pub(super) node: Option<&'a str>,
    namespace: Option<&'a [Value]>,
    pub(super) data: Option<&'a Data>,
}

impl<'a> V3View<'a> {
    /// The view of a record the classifier calls v3 (whose v3 event is always read: a record
    /// without one shows as an event without method or params).
    pub fn of(rec: &'a Record) -> Self {
        let ev = rec.v3.as_deref();
        let params = ev.and_then(|e| e.params.as_ref().ok());
        V3View {
            method: ev.map_or("", |e| e.method.as_ref()),
            node: params.and_then(|p| p.node.0.as_ref()?.as_str()),
            namespace: params.and_then(|p| p.namespace.0.as_ref()?.as_array().map(Vec::as_slice)),
            data: params.map(|p| &p.data),
        }
    }

    /// The data read whole (of a list, its first item).
    pub(super) fn whole(&self) -> Option<&'a Value> {
        match self.data? {
            Data::Value(Value::Array(a)) => a.first(),
            Data::Value(v) => Some(v),
            _ => None,
        }
    }

    /// `data.event`.
    pub(super) fn event(&self) -> Option<&'a str> {
        match self.data? {
            Data::Message(m) => Some(m.event()),
            Data::Lifecycle(l) => l.event.as_ref()?.as_str(),
            _ => self.whole()?.get("event")?.as_str(),
        }
    }

    /// `data.delta.type`.
    pub(super) fn delta_type(&self) -> Option<&'a str> {
        match self.data? {
            Data::Message(m) => m.delta_type(),
            _ => self.whole()?.get("delta")?.get("type")?.as_str(),
        }
    }

    /// A root lifecycle event that ends the run (`completed`, `failed`, `interrupted`).
    pub fn ends_the_run(&self) -> bool {
        let root = |ns: Option<&Value>| ns.and_then(Value::as_array).is_some_and(Vec::is_empty);
        let root_lifecycle = match self.data {
            Some(Data::Lifecycle(l)) => l.namespace.0.is_none() || root(l.namespace.0.as_ref()),
            _ => false,
        };
        self.method == "lifecycle"
            && root_lifecycle
            && self.namespace.is_some_and(<[Value]>::is_empty)
            && matches!(self.event(), Some("completed" | "failed" | "interrupted"))
    }

    /// The namespace's string parts.
    pub(super) fn parts(&self) -> impl Iterator<Item = &'a str> {
        self.namespace
            .unwrap_or_default()
            .iter()
            .filter_map(Value::as_str)
    }
}

/// A v3 record's `params.data` from its tree (of a list, the first item).
pub(super) fn v3_data_tree(rec: &Record) -> &Value {
    let v = rec.value();
    let ev = match v.get("type").and_then(Value::as_str) {
        Some("event") => v,
        _ => v.get("data").unwrap_or(v),
    };
    match ev.pointer("/params/data").unwrap_or(&Value::Null) {
        Value::Array(a) => a.first().unwrap_or(&Value::Null),
        d => d,
    }
}

/// What a raw record is, by its real type.
pub fn describe_record(rec: &Record, kind: &RecordKind) -> String {
    match kind {
        RecordKind::V3 => {
            let v3 = V3View::of(rec);
            let task = match v3.data {
                Some(Data::Tasks(t)) if v3.method == "tasks" => t.name.0.as_deref(),
                _ => None,
            };
            // The namespace's parts, each without its task id.
            let parts: Vec<&str> = v3
                .parts()
                .map(|p| p.split(':').next().unwrap_or(p))
                .collect();
            let ns = v3.namespace.is_some_and(|a| !a.is_empty());
            spaced([
                Some(format!("v3 {}", v3.method)),
                v3.event().map(String::from),
                v3.delta_type().map(|dt| format!("({dt})")),
                v3.node.or(task).map(|n| format!("node={n}")),
                ns.then(|| format!("ns=[{}]", parts.join("|"))),
            ])
        }
        RecordKind::V2 => {
            let ev = rec.v2.as_deref();
            let event = ev.map_or("", |e| e.event.as_str());
            let name = ev.and_then(|e| e.name.as_deref()).unwrap_or_default();
            // The typed reader reads `data` by the event's kind, not its keys or a chunk's
            // class: the outline of `data` is read from the tree.
            let v = crate::wire::v2::payload(rec.value(), rec.sse_event.as_deref());
            let data = v.get("data").and_then(Value::as_object);
            let keys = data.map(|d| d.keys().map(String::as_str).collect::<Vec<_>>());
            let chunk = data.and_then(|d| d.get("chunk"));
            // Its LangChain class (the last part of a dumpd `id`), else its `type`.
            let lc_class = chunk.and_then(|c| c.get("id")?.as_array()?.last()?.as_str());
            let chunk_type = lc_class.or_else(|| chunk?.get("type")?.as_str());
            spaced([
                Some(format!("v2 {event} {name}")),
                keys.map(|k| format!("data{{{}}}", k.join(","))),
                chunk_type.map(|t| format!("chunk: {t}")),
                ev.and_then(|e| e.node()).map(|n| format!("node={n}")),
            ])
        }
        RecordKind::ErrorLine(e) => {
            format!("error line {}", e.name.as_deref().unwrap_or("(unnamed)"))
        }
        RecordKind::RunMetadata { .. } => "stream part metadata".into(),
        RecordKind::Values(_) => "stream part values".into(),
        RecordKind::Custom(..) => "stream part custom".into(),
        RecordKind::MessagesTuple(..) => "stream part messages (messages-tuple)".into(),
        RecordKind::OtherStreamMode(m) => format!("stream part {m}"),
        RecordKind::Agui => format!("AG-UI {}", str_of(rec.value(), "type").unwrap_or_default()),
        RecordKind::Unknown(_) => "unknown record".into(),
    }
}

/// The parts there are, joined by spaces.
fn spaced<const N: usize>(parts: [Option<String>; N]) -> String {
    parts.into_iter().flatten().collect::<Vec<_>>().join(" ")
}
