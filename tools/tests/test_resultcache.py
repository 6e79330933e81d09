"""Passes of deterministic steps keyed by their inputs (resultcache.py)."""

from lrb_harness import resultcache

from .helpers import TempDirTest, write


class ResultCacheTest(TempDirTest):
    def setUp(self) -> None:
        super().setUp()
        self.env = {'XDG_CACHE_HOME': str(self.tmp / 'cache'), 'HOME': str(self.tmp)}
        self.model = self.tmp / 'model' / 'm.pml'
        write(self.model, 'init {}\n')

    def key(self) -> str:
        return resultcache.key([self.model], self.tmp, [['true']])

    def test_a_pass_is_found_by_the_same_inputs(self) -> None:
        key = self.key()
        self.assertIsNone(resultcache.passed('model', key, self.env))
        resultcache.record('model', key, self.env)
        self.assertIsNotNone(resultcache.passed('model', self.key(), self.env))

    def test_changed_contents_change_the_key(self) -> None:
        key = self.key()
        resultcache.record('model', key, self.env)
        write(self.model, 'init { skip }\n')
        self.assertNotEqual(self.key(), key)
        self.assertIsNone(resultcache.passed('model', self.key(), self.env))

    def test_tool_output_is_in_the_key(self) -> None:
        self.assertNotEqual(resultcache.key([self.model], self.tmp, [['echo', '1']]),
                            resultcache.key([self.model], self.tmp, [['echo', '2']]))

    def test_a_missing_tool_still_gives_a_key(self) -> None:
        self.assertTrue(resultcache.key([], self.tmp, [['no-such-tool-here']]))

    def test_disabled_finds_nothing(self) -> None:
        key = self.key()
        resultcache.record('model', key, self.env)
        self.env[resultcache.DISABLE] = '1'
        self.assertIsNone(resultcache.passed('model', key, self.env))
