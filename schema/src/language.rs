//! The languages of programs-to-debug: a leaf that the model's other modules (programs, line
//! counting, engines) name without depending on one another.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Language {
    JavaScript,
    C,
    Python,
    Go,
}
