//! The rules of every game against independent naive models, the searches and solvers, and the
//! engine façade's typed API.

#[path = "../support/gomoku_positions.rs"]
mod gomoku_positions;
#[path = "../support/star.rs"]
mod star;

mod chinese_checkers;
mod engine_api;
mod gomoku_rules;
mod gomoku_search;
mod gomoku_solver;
mod gomoku_threats;
mod instruction_sets;
mod reversi_endgame;
mod reversi_rules;
mod search_probcut;
mod weights;
