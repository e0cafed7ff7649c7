/** Lines of fragments, as the layout stage builds them (`pipeline/layout/order.ts`): furniture rows read them. */
export { lineOf, toLines } from '../layout/order.ts';
