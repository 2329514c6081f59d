//! Evaluation (stub: the classic PAIP evaluators arrive with the search issue).
