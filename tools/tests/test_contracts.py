"""The contract matrix's rows against the kernel-doc's Context: lines."""

import unittest

from lrb_harness import contracts

HEADER = """
struct lrb_buffer *lrb_alloc(unsigned long size, unsigned long flags);
struct lrb_event *lrb_consume(struct lrb_buffer *buffer, int cpu, u64 *ts,
			      unsigned long *lost);
int lrb_record_disable(struct lrb_buffer *buffer);
int lrb_record_enable(struct lrb_buffer *buffer);
static inline void *lrb_event_data(struct lrb_event *event)
{
	return event->type_len ? &event->array[0] : &event->array[1];
}
"""

SOURCE = """
/**
 * lrb_alloc - allocate a ring buffer
 * @size: bytes
 *
 * Context: process context, may sleep.
 *
 * Return: the buffer.
 */
/**
 * lrb_consume - read and consume
 * @buffer: the buffer
 *
 * Context: any context but NMI (takes the CPU's reader lock, interrupts
 * off).
 *
 * Return: the event.
 */
/**
 * lrb_record_disable - refuse writes
 * @buffer: the buffer
 *
 * Context: any context.
 *
 * Return: 0.
 */
/**
 * lrb_record_enable - undo one
 * @buffer: the buffer
 *
 * Context: any context.
 */
"""

TABLE = """
static const struct ct_op lrb_rows[] = {
	{ .name = "lrb_alloc", .ctx = CT_PROCESS,
	  .call = call_alloc },
	{ .name = "lrb_consume", .ctx = CT_ANY_BUT_NMI,
	  .call = call_consume },
	{ .name = "lrb_record_disable+lrb_record_enable", .ctx = CT_ANY,
	  .call = call_pair },
};
"""


class ApiTest(unittest.TestCase):
    def test_declared_functions_not_inline_helpers(self) -> None:
        self.assertEqual(contracts.api_functions(HEADER),
                         ['lrb_alloc', 'lrb_consume', 'lrb_record_disable',
                          'lrb_record_enable'])

    def test_context_lines_across_lines(self) -> None:
        docs = contracts.doc_contexts(SOURCE)
        self.assertEqual(docs['lrb_consume'],
                         "any context but NMI (takes the CPU's reader lock, interrupts off).")
        self.assertEqual(docs['lrb_record_enable'], 'any context.')

    def test_phrases(self) -> None:
        self.assertEqual(contracts.context_set('any context, NMI included.'), contracts.ANY)
        self.assertEqual(contracts.context_set('Any context but NMI.'), contracts.ANY_BUT_NMI)
        self.assertEqual(contracts.context_set('process context, may sleep.'),
                         contracts.PROCESS)
        with self.assertRaises(ValueError):
            contracts.context_set('softirq only')


class CompareTest(unittest.TestCase):
    def test_matching_table(self) -> None:
        self.assertEqual(contracts.compare(HEADER, SOURCE, TABLE), [])

    def test_row_with_other_contexts(self) -> None:
        table = TABLE.replace('.ctx = CT_ANY_BUT_NMI', '.ctx = CT_ANY')
        problems = contracts.compare(HEADER, SOURCE, table)
        self.assertEqual(len(problems), 1)
        self.assertIn('row lrb_consume', problems[0])

    def test_doc_changed(self) -> None:
        source = SOURCE.replace(' * Context: process context, may sleep.',
                                ' * Context: any context.')
        self.assertIn('row lrb_alloc', contracts.compare(HEADER, source, TABLE)[0])

    def test_function_without_row(self) -> None:
        table = TABLE.replace('lrb_record_disable+lrb_record_enable', 'lrb_record_disable')
        self.assertEqual(contracts.compare(HEADER, SOURCE, table),
                         ['lrb_record_enable: no row of the contract matrix calls it'])

    def test_row_of_unknown_function(self) -> None:
        table = TABLE.replace('"lrb_alloc"', '"lrb_alloc+lrb_nothing"')
        self.assertIn('lrb_nothing is not a function of the API',
                      contracts.compare(HEADER, SOURCE, table)[0])

    def test_pair_takes_the_contexts_both_allow(self) -> None:
        table = TABLE.replace('"lrb_record_disable+lrb_record_enable", .ctx = CT_ANY',
                              '"lrb_alloc+lrb_record_enable", .ctx = CT_PROCESS')
        table = table.replace('{ .name = "lrb_alloc", .ctx = CT_PROCESS,',
                              '{ .name = "lrb_record_disable", .ctx = CT_ANY,')
        self.assertEqual(contracts.compare(HEADER, SOURCE, table), [])


if __name__ == '__main__':
    unittest.main()
