//! Persistence: leagues, seasons, competitions, results with versions, and the history of every change.
