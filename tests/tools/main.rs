//! The tools people script: batch analysis (with its shards under GNU parallel), engine-against-
//! engine matches and the Gomocup summary.

mod analyze;
mod gomocup_summary;
mod matches;
mod shards;
