//! The sibling term of the loss (`nnue-train --sibling`): two children of one position are
//! asked for the right difference as well as the right values, since a search chooses a move
//! by its children's differences.

use crate::net::Real;

/// The target and loss scale that give one sample `a` of a sibling pair `(a, b)` its share of
/// the pair's loss `(y_a − t_a)² + (y_b − t_b)² + λ ((y_a − t_a) − (y_b − t_b))²`, the sibling's
/// output `y_b` held fixed: the gradient with respect to `y_a` of that loss is
/// `2 (1 + λ) (y_a − t')` with `t' = t_a + λ / (1 + λ) · (y_b − t_b)`. The plain squared error
/// fits each value alone; the λ term fits the difference of two children of one position,
/// which is what a search compares when it chooses a move (a common error of both, such as a
/// side-to-move bias of the phase, costs nothing there).
pub fn sibling_target<T: Real>(target: T, sibling_error: T, lambda: T) -> (T, T) {
    let one_plus = T::ONE + lambda;
    (
        target + T::from_f64(lambda.to_f64() / one_plus.to_f64()) * sibling_error,
        one_plus,
    )
}
