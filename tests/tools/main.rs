//! The tools people script: batch analysis, engine-against-engine matches and the Gomocup summary.

mod analyze;
mod gomocup_summary;
mod matches;
