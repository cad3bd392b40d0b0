//! Named, typed, validated settings: scenario keys and rule numbers alike.
//!
//! Scenario keys (`--set attacker.quality=veteran`) and rule fields (`volley rules`,
//! `--rules FILE`) share one vocabulary: a [`Param`] has a name, a document, a
//! [`ParamKind`] and a default [`Value`]. [`Settings`] validates user text
//! against a list of params and hands typed values to scenario constructors.
//! [`rule_book!`](crate::rule_book) gives a ruleset's `Rules` struct the same
//! reflection, and [`choice_enum!`](crate::choice_enum) makes enums of named
//! choices (qualities, interpretations) readable and printable by name.

use std::any::Any;
use std::fmt;

/// What values a parameter accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// An integer in `min..=max`.
    Int {
        /// The smallest accepted value.
        min: i64,
        /// The largest accepted value.
        max: i64,
    },
    /// `true` or `false`.
    Bool,
    /// One of these names.
    Choice(&'static [&'static str]),
    /// Dice written `NdS`, such as `3d20`.
    Dice,
}

impl ParamKind {
    /// What would be accepted, in words, for error messages and `volley list`.
    pub fn describe(&self) -> String {
        match self {
            ParamKind::Int { min, max } => format!("an integer from {min} to {max}"),
            ParamKind::Bool => "true or false".to_string(),
            ParamKind::Choice(names) => format!("one of {}", names.join(", ")),
            ParamKind::Dice => "dice as NdS, such as 2d6 or 3d20 (N 1-100, S 2-1000)".to_string(),
        }
    }
}

/// A parameter's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// A named choice.
    Choice(String),
    /// `count` dice of `sides` faces.
    Dice {
        /// How many dice.
        count: u32,
        /// Faces per die.
        sides: u32,
    },
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Bool(v) => write!(f, "{v}"),
            Value::Choice(v) => write!(f, "{v}"),
            Value::Dice { count, sides } => write!(f, "{count}d{sides}"),
        }
    }
}

/// One named parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// The key users type.
    pub name: String,
    /// One sentence on what it means (for rule fields: the rules' section).
    pub doc: String,
    /// What it accepts.
    pub kind: ParamKind,
    /// Its default.
    pub default: Value,
}

impl Param {
    /// An integer parameter.
    pub fn int(name: impl Into<String>, doc: impl Into<String>, default: i64, min: i64, max: i64) -> Param {
        Param { name: name.into(), doc: doc.into(), kind: ParamKind::Int { min, max }, default: Value::Int(default) }
    }

    /// A boolean parameter.
    pub fn boolean(name: impl Into<String>, doc: impl Into<String>, default: bool) -> Param {
        Param { name: name.into(), doc: doc.into(), kind: ParamKind::Bool, default: Value::Bool(default) }
    }

    /// A parameter choosing one name of a [`Choice`] enum.
    pub fn choice<C: Choice>(name: impl Into<String>, doc: impl Into<String>, default: C) -> Param {
        Param {
            name: name.into(),
            doc: doc.into(),
            kind: ParamKind::Choice(C::NAMES),
            default: Value::Choice(default.name().to_string()),
        }
    }

    /// A dice parameter (`NdS`).
    pub fn dice(name: impl Into<String>, doc: impl Into<String>, count: u32, sides: u32) -> Param {
        Param { name: name.into(), doc: doc.into(), kind: ParamKind::Dice, default: Value::Dice { count, sides } }
    }

    /// Parses user text as this parameter's value.
    pub fn parse(&self, text: &str) -> Result<Value, ParamError> {
        let text = text.trim();
        let bad = || ParamError::BadValue {
            key: self.name.clone(),
            value: text.to_string(),
            expected: self.kind.describe(),
            nearest: Vec::new(),
        };
        let value = match &self.kind {
            ParamKind::Int { .. } => Value::Int(text.parse().map_err(|_| bad())?),
            // One spelling only, the one every message and `volley list`
            // shows: `yes` or `1` would work here but not in a TOML file.
            ParamKind::Bool => Value::Bool(match text {
                "true" => true,
                "false" => false,
                _ => return Err(bad()),
            }),
            ParamKind::Choice(_) => Value::Choice(text.to_ascii_lowercase()),
            ParamKind::Dice => {
                let lower = text.to_ascii_lowercase();
                let (count, sides) = lower.split_once('d').ok_or_else(bad)?;
                let count = if count.is_empty() { 1 } else { count.parse().map_err(|_| bad())? };
                Value::Dice { count, sides: sides.parse().map_err(|_| bad())? }
            }
        };
        self.check(value)
    }

    /// Checks a typed value against this parameter's kind and range.
    pub fn check(&self, value: Value) -> Result<Value, ParamError> {
        let mismatch = |value: &Value| ParamError::BadValue {
            key: self.name.clone(),
            value: value.to_string(),
            expected: self.kind.describe(),
            nearest: Vec::new(),
        };
        match (&self.kind, &value) {
            (ParamKind::Int { min, max }, Value::Int(v)) => {
                if v < min || v > max {
                    return Err(ParamError::OutOfRange { key: self.name.clone(), value: *v, min: *min, max: *max });
                }
            }
            (ParamKind::Bool, Value::Bool(_)) => {}
            (ParamKind::Choice(names), Value::Choice(name)) => {
                if !names.contains(&name.as_str()) {
                    return Err(ParamError::BadValue {
                        key: self.name.clone(),
                        value: name.clone(),
                        expected: self.kind.describe(),
                        nearest: nearest(name, names.iter().copied()),
                    });
                }
            }
            (ParamKind::Dice, Value::Dice { count, sides }) => {
                if !(1..=100).contains(count) || !(2..=1000).contains(sides) {
                    return Err(mismatch(&value));
                }
            }
            _ => return Err(mismatch(&value)),
        }
        Ok(value)
    }
}

/// Bad input for a parameter: what was wrong and what would be accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamError {
    /// No parameter has this name.
    UnknownKey {
        /// The key given.
        key: String,
        /// The closest valid keys, or the keys whose docs name it (in
        /// backquotes) as the retired key they replace.
        nearest: Vec<String>,
        /// Every valid key.
        valid: Vec<String>,
    },
    /// The text is not a value of the parameter's kind.
    BadValue {
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What would be accepted.
        expected: String,
        /// The closest valid values, for choices.
        nearest: Vec<String>,
    },
    /// An integer outside the accepted range.
    OutOfRange {
        /// The key.
        key: String,
        /// The value given.
        value: i64,
        /// The smallest accepted value.
        min: i64,
        /// The largest accepted value.
        max: i64,
    },
    /// Values that are each valid but cannot go together.
    Invalid {
        /// The key at fault.
        key: String,
        /// Why, in a sentence.
        reason: String,
    },
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::UnknownKey { key, nearest, valid } => {
                write!(f, "unknown key `{key}`")?;
                if !nearest.is_empty() {
                    write!(f, "; did you mean `{}`?", nearest.join("`, `"))?;
                }
                if valid.is_empty() {
                    write!(f, " (this takes no keys)")
                } else {
                    write!(f, " (valid keys: {})", valid.join(", "))
                }
            }
            ParamError::BadValue { key, value, expected, nearest } => {
                write!(f, "`{key}` cannot be `{value}`: expected {expected}")?;
                if !nearest.is_empty() {
                    write!(f, "; did you mean `{}`?", nearest.join("`, `"))?;
                }
                Ok(())
            }
            ParamError::OutOfRange { key, value, min, max } => {
                write!(f, "`{key}` = {value} is out of range: expected {min} to {max}")
            }
            ParamError::Invalid { key, reason } => write!(f, "`{key}`: {reason}"),
        }
    }
}

impl std::error::Error for ParamError {}

/// The valid names closest to `given` (edit distance at most a third of its
/// length, at least 2), best first; for "did you mean" messages.
pub fn nearest<'a>(given: &str, valid: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let given = given.to_ascii_lowercase();
    let limit = (given.chars().count() / 3).max(2);
    let mut scored: Vec<(usize, &str)> = valid
        .into_iter()
        .map(|name| (edit_distance(&given, &name.to_ascii_lowercase()), name))
        .filter(|&(d, name)| d <= limit || name.contains(given.as_str()) && !given.is_empty())
        .collect();
    scored.sort();
    let best = scored.first().map(|s| s.0);
    scored.into_iter().filter(|s| Some(s.0) == best).map(|s| s.1.to_string()).take(3).collect()
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = previous + usize::from(ca != cb);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

/// Validated values for a list of parameters, defaults filled in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    values: Vec<(String, Value)>,
}

impl Settings {
    /// Every parameter at its default.
    pub fn defaults(params: &[Param]) -> Settings {
        Settings { values: params.iter().map(|p| (p.name.clone(), p.default.clone())).collect() }
    }

    /// Defaults overridden by `key=value` texts, each checked.
    pub fn parse<'a>(
        params: &[Param],
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Settings, ParamError> {
        let mut settings = Settings::defaults(params);
        for (key, text) in pairs {
            let param = find(params, key)?;
            let value = param.parse(text)?;
            settings.put(key, value);
        }
        Ok(settings)
    }

    /// Defaults overridden by typed values, each checked.
    pub fn from_values<'a>(
        params: &[Param],
        pairs: impl IntoIterator<Item = (&'a str, Value)>,
    ) -> Result<Settings, ParamError> {
        let mut settings = Settings::defaults(params);
        for (key, value) in pairs {
            let value = find(params, key)?.check(value)?;
            settings.put(key, value);
        }
        Ok(settings)
    }

    fn put(&mut self, key: &str, value: Value) {
        if let Some(slot) = self.values.iter_mut().find(|(k, _)| k == key) {
            slot.1 = value;
        }
    }

    /// Every (key, value), in parameter order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// A value by key. Panics on a key the scenario did not declare: that is a
    /// programming error, not bad input (input was validated in `parse`).
    pub fn get(&self, key: &str) -> &Value {
        self.values
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
            .unwrap_or_else(|| panic!("scenario read undeclared key `{key}`"))
    }

    /// An integer value.
    pub fn int(&self, key: &str) -> i64 {
        match self.get(key) {
            Value::Int(v) => *v,
            other => panic!("key `{key}` is {other:?}, not an integer"),
        }
    }

    /// A boolean value.
    pub fn bool(&self, key: &str) -> bool {
        match self.get(key) {
            Value::Bool(v) => *v,
            other => panic!("key `{key}` is {other:?}, not a boolean"),
        }
    }

    /// A choice value as its enum.
    pub fn choice<C: Choice>(&self, key: &str) -> C {
        match self.get(key) {
            Value::Choice(name) => {
                C::from_name(name).unwrap_or_else(|| panic!("key `{key}`: `{name}` is not a choice"))
            }
            other => panic!("key `{key}` is {other:?}, not a choice"),
        }
    }

    /// A dice value as (count, sides).
    pub fn dice(&self, key: &str) -> (u32, u32) {
        match self.get(key) {
            Value::Dice { count, sides } => (*count, *sides),
            other => panic!("key `{key}` is {other:?}, not dice"),
        }
    }
}

fn find<'p>(params: &'p [Param], key: &str) -> Result<&'p Param, ParamError> {
    params.iter().find(|p| p.name == key).ok_or_else(|| {
        // A key a scenario no longer takes is named, in backquotes, in the doc
        // of the key that replaced it ("replaces the retired `old`"): that key
        // is the suggestion, however far its name is from the old one.
        let quoted = format!("`{key}`");
        let replacing: Vec<String> =
            params.iter().filter(|p| p.doc.contains(&quoted)).map(|p| p.name.clone()).collect();
        ParamError::UnknownKey {
            key: key.to_string(),
            nearest: if replacing.is_empty() {
                nearest(key, params.iter().map(|p| p.name.as_str()))
            } else {
                replacing
            },
            valid: params.iter().map(|p| p.name.clone()).collect(),
        }
    })
}

/// An enum of named choices: qualities, arms, interpretations of the rules.
pub trait Choice: Copy + PartialEq + fmt::Debug + Send + Sync + 'static {
    /// Every variant, in declaration order.
    const ALL: &'static [Self];
    /// Every variant's name, in the same order.
    const NAMES: &'static [&'static str];
    /// This variant's name.
    fn name(self) -> &'static str;
    /// The variant of a name.
    fn from_name(name: &str) -> Option<Self> {
        Self::NAMES.iter().position(|n| *n == name).map(|i| Self::ALL[i])
    }
}

/// Declares an enum of named choices and implements [`Choice`] and
/// [`RuleValue`] for it.
///
/// ```
/// volley_kernel::choice_enum! {
///     /// How light infantry takes half hits.
///     pub enum HalfHits {
///         /// Halve, rounding down.
///         RoundDown = "round_down",
///         /// Halve, rounding up.
///         RoundUp = "round_up",
///     }
/// }
/// use volley_kernel::params::Choice;
/// assert_eq!(HalfHits::from_name("round_up"), Some(HalfHits::RoundUp));
/// ```
#[macro_export]
macro_rules! choice_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $crate::params::Choice for $name {
            const ALL: &'static [Self] = &[$($name::$variant),+];
            const NAMES: &'static [&'static str] = &[$($text),+];
            fn name(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }
        }

        impl $crate::params::RuleValue for $name {
            fn kind() -> $crate::params::ParamKind {
                $crate::params::ParamKind::Choice(<$name as $crate::params::Choice>::NAMES)
            }
            fn to_value(&self) -> $crate::params::Value {
                $crate::params::Value::Choice($crate::params::Choice::name(*self).to_string())
            }
            fn from_value(value: &$crate::params::Value) -> Option<Self> {
                match value {
                    $crate::params::Value::Choice(name) => <$name as $crate::params::Choice>::from_name(name),
                    _ => None,
                }
            }
        }
    };
}

/// A type a rule field can have: an integer, a boolean or a [`Choice`] enum.
pub trait RuleValue: Sized {
    /// What it accepts (integers: the whole type's range, narrowed by the field).
    fn kind() -> ParamKind;
    /// As a [`Value`].
    fn to_value(&self) -> Value;
    /// From a [`Value`] of the right kind.
    fn from_value(value: &Value) -> Option<Self>;
}

macro_rules! integer_rule_value {
    ($($t:ty),*) => {$(
        impl RuleValue for $t {
            fn kind() -> ParamKind {
                ParamKind::Int { min: (<$t>::MIN as i128).max(i64::MIN as i128) as i64, max: (<$t>::MAX as i128).min(i64::MAX as i128) as i64 }
            }
            fn to_value(&self) -> Value {
                Value::Int(*self as i64)
            }
            fn from_value(value: &Value) -> Option<Self> {
                match value {
                    Value::Int(v) => <$t>::try_from(*v).ok(),
                    _ => None,
                }
            }
        }
    )*};
}
integer_rule_value!(i8, i16, i32, i64, u8, u16, u32, u64, usize);

impl RuleValue for bool {
    fn kind() -> ParamKind {
        ParamKind::Bool
    }
    fn to_value(&self) -> Value {
        Value::Bool(*self)
    }
    fn from_value(value: &Value) -> Option<Self> {
        match value {
            Value::Bool(v) => Some(*v),
            _ => None,
        }
    }
}

/// A ruleset's rules as reflected fields: listed by `volley rules`, set from
/// `--rules FILE` and by sensitivity sweeps.
pub trait RuleBook: Send + Sync + fmt::Debug + 'static {
    /// Every field with its current value (as `default`) and doc.
    fn fields(&self) -> Vec<Param>;
    /// Sets one field by name, checking its kind and range.
    fn set(&mut self, name: &str, value: &Value) -> Result<(), ParamError>;
    /// Sets one field by name from user text (`rules.NAME=TEXT` on a
    /// command line or in a sweep), parsed as the field's kind and checked
    /// as [`RuleBook::set`] checks it; an unknown name is refused with the
    /// nearest field names.
    fn set_text(&mut self, name: &str, text: &str) -> Result<(), ParamError> {
        let fields = self.fields();
        let value = find(&fields, name)?.parse(text)?;
        self.set(name, &value)
    }
    /// A boxed copy.
    fn clone_box(&self) -> Box<dyn RuleBook>;
    /// For downcasting to the ruleset's own `Rules`.
    fn as_any(&self) -> &dyn Any;
}

impl Clone for Box<dyn RuleBook> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// The concrete `Rules` of a rule book. Panics if the book belongs to another
/// ruleset, which the catalogue never allows.
pub fn rules_of<T: 'static>(book: &dyn RuleBook) -> &T {
    book.as_any().downcast_ref::<T>().expect("rule book of another ruleset")
}

/// Declares a ruleset's `Rules` struct: every field documented, with its
/// printed value as default and, for integers, an optional accepted range.
/// Implements `Default` and [`RuleBook`].
///
/// ```
/// volley_kernel::rule_book! {
///     /// Example rules.
///     pub struct Rules {
///         /// "Engage the enemy": a roll of this or more always fails.
///         pub automatic_failure: u32 = 11, range 2..=13;
///         /// Whether double one is special.
///         pub double_one_special: bool = true;
///     }
/// }
/// use volley_kernel::params::{RuleBook, Value};
/// let mut rules = Rules::default();
/// rules.set("automatic_failure", &Value::Int(12)).unwrap();
/// assert_eq!(rules.automatic_failure, 12);
/// assert!(rules.set("automatic_failure", &Value::Int(20)).is_err());
/// ```
#[macro_export]
macro_rules! rule_book {
    (@kind $ty:ty) => { <$ty as $crate::params::RuleValue>::kind() };
    (@kind $ty:ty; $lo:literal ..= $hi:literal) => { $crate::params::ParamKind::Int { min: $lo, max: $hi } };
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[doc = $doc:literal])*
                $fvis:vis $field:ident : $ty:ty = $default:expr $(, range $lo:literal ..= $hi:literal)? ;
            )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq)]
        $vis struct $name {
            $( $(#[doc = $doc])* $fvis $field : $ty, )*
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $( $field: $default, )* }
            }
        }

        impl $crate::params::RuleBook for $name {
            #[allow(unused_mut)]
            fn fields(&self) -> Vec<$crate::params::Param> {
                let mut fields = Vec::new();
                $(
                    let kind = $crate::rule_book!(@kind $ty $(; $lo ..= $hi)?);
                    fields.push($crate::params::Param {
                        name: stringify!($field).to_string(),
                        doc: [$($doc.trim()),*].join(" "),
                        kind,
                        default: $crate::params::RuleValue::to_value(&self.$field),
                    });
                )*
                fields
            }

            // A rule book with no fields (the plain dice) has no match arms but the last.
            #[allow(unreachable_code, unused_variables)]
            fn set(&mut self, name: &str, value: &$crate::params::Value) -> Result<(), $crate::params::ParamError> {
                let fields = $crate::params::RuleBook::fields(self);
                let Some(param) = fields.iter().find(|p| p.name == name) else {
                    return Err($crate::params::ParamError::UnknownKey {
                        key: name.to_string(),
                        nearest: $crate::params::nearest(name, fields.iter().map(|p| p.name.as_str())),
                        valid: fields.iter().map(|p| p.name.clone()).collect(),
                    });
                };
                let value = param.check(value.clone())?;
                match name {
                    $( stringify!($field) => {
                        self.$field = <$ty as $crate::params::RuleValue>::from_value(&value).ok_or_else(|| {
                            $crate::params::ParamError::BadValue {
                                key: name.to_string(),
                                value: value.to_string(),
                                expected: param.kind.describe(),
                                nearest: Vec::new(),
                            }
                        })?;
                    } )*
                    _ => unreachable!("field list and match arms come from the same declaration"),
                }
                Ok(())
            }

            fn clone_box(&self) -> Box<dyn $crate::params::RuleBook> {
                Box::new(self.clone())
            }

            fn as_any(&self) -> &dyn std::any::Any {
                self
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::choice_enum! {
        /// Test qualities.
        pub enum Grade {
            /// Best.
            Veteran = "veteran",
            /// Middling.
            Trained = "trained",
        }
    }

    crate::rule_book! {
        /// Test rules.
        pub struct TestRules {
            /// First line.
            /// Second line.
            pub limit: u32 = 11, range 2..=13;
            /// A choice.
            pub grade: Grade = Grade::Trained;
            /// A switch.
            pub enabled: bool = false;
        }
    }

    fn params() -> Vec<Param> {
        vec![
            Param::int("figures", "figures in the unit", 24, 1, 60),
            Param::boolean("dense", "dense target", false),
            Param::choice("quality", "quality", Grade::Trained),
            Param::dice("dice", "dice", 2, 6),
        ]
    }

    #[test]
    fn settings_parse_and_validate() {
        let settings =
            Settings::parse(&params(), [("figures", "12"), ("quality", "veteran"), ("dice", "3d20")]).unwrap();
        assert_eq!(settings.int("figures"), 12);
        assert!(!settings.bool("dense"));
        assert_eq!(settings.choice::<Grade>("quality"), Grade::Veteran);
        assert_eq!(settings.dice("dice"), (3, 20));
    }

    #[test]
    fn errors_name_the_key_and_what_is_accepted() {
        let error = Settings::parse(&params(), [("figurs", "12")]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown key `figurs`; did you mean `figures`? (valid keys: figures, dense, quality, dice)"
        );
        let error = Settings::parse(&params(), [("figures", "99")]).unwrap_err();
        assert_eq!(error.to_string(), "`figures` = 99 is out of range: expected 1 to 60");
        let error = Settings::parse(&params(), [("quality", "veteren")]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "`quality` cannot be `veteren`: expected one of veteran, trained; did you mean `veteran`?"
        );
        let error = Settings::parse(&params(), [("dense", "maybe")]).unwrap_err();
        assert_eq!(error.to_string(), "`dense` cannot be `maybe`: expected true or false");
        // A retired key points to the key whose doc says it replaced it.
        let renamed = vec![Param::int("strength", "figures in the unit; replaces the retired `figures`", 24, 1, 60)];
        let error = Settings::parse(&renamed, [("figures", "12")]).unwrap_err();
        assert_eq!(error.to_string(), "unknown key `figures`; did you mean `strength`? (valid keys: strength)");
        assert!(Settings::parse(&params(), [("dice", "3x20")]).is_err());
    }

    #[test]
    fn rule_books_reflect_their_fields() {
        let mut rules = TestRules::default();
        let fields = rules.fields();
        assert_eq!(fields[0].name, "limit");
        assert_eq!(fields[0].doc, "First line. Second line.");
        assert_eq!(fields[0].kind, ParamKind::Int { min: 2, max: 13 });
        assert_eq!(fields[1].default, Value::Choice("trained".into()));
        rules.set("grade", &Value::Choice("veteran".into())).unwrap();
        rules.set("enabled", &Value::Bool(true)).unwrap();
        assert_eq!(rules.grade, Grade::Veteran);
        assert!(rules.enabled);
        assert!(matches!(rules.set("limit", &Value::Int(1)), Err(ParamError::OutOfRange { .. })));
        assert!(matches!(rules.set("limt", &Value::Int(3)), Err(ParamError::UnknownKey { .. })));
        let boxed: Box<dyn RuleBook> = Box::new(rules.clone());
        assert_eq!(rules_of::<TestRules>(boxed.as_ref()), &rules);
    }

    #[test]
    fn rule_books_set_a_field_from_text() {
        let mut rules = TestRules::default();
        rules.set_text("limit", " 12 ").unwrap();
        rules.set_text("grade", "veteran").unwrap();
        rules.set_text("enabled", "true").unwrap();
        assert_eq!((rules.limit, rules.grade, rules.enabled), (12, Grade::Veteran, true));
        // Each refusal as `set` and `Param::parse` give it, the book unchanged.
        assert!(matches!(rules.set_text("limit", "14"), Err(ParamError::OutOfRange { .. })));
        assert!(matches!(rules.set_text("limit", "many"), Err(ParamError::BadValue { .. })));
        let Err(ParamError::UnknownKey { nearest, .. }) = rules.set_text("limt", "3") else { panic!("unknown") };
        assert_eq!(nearest, ["limit"]);
        assert_eq!((rules.limit, rules.grade, rules.enabled), (12, Grade::Veteran, true));
    }
}
