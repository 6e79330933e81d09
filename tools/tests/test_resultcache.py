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


class KeyOfTest(TempDirTest):
    def test_parts_files_and_tools(self) -> None:
        conf = self.tmp / '.config'
        write(conf, 'CONFIG_A=y\n')
        key = resultcache.key_of(['tree1', 'x86_64'], [conf], [['echo', 'gcc 12']])
        self.assertEqual(key, resultcache.key_of(['tree1', 'x86_64'], [conf],
                                                 [['echo', 'gcc 12']]))
        self.assertNotEqual(key, resultcache.key_of(['tree2', 'x86_64'], [conf],
                                                    [['echo', 'gcc 12']]))
        self.assertNotEqual(key, resultcache.key_of(['tree1', 'x86_64'], [conf],
                                                    [['echo', 'gcc 13']]))
        write(conf, 'CONFIG_A=n\n')
        self.assertNotEqual(key, resultcache.key_of(['tree1', 'x86_64'], [conf],
                                                    [['echo', 'gcc 12']]))
        conf.unlink()
        self.assertTrue(resultcache.key_of(['tree1'], [conf]))


class CachedChecksTest(TempDirTest):
    """W=1 and sparse skip a compile whose inputs passed before, and only then."""

    def setUp(self) -> None:
        super().setUp()
        import subprocess
        self.env = {'XDG_CACHE_HOME': str(self.tmp / 'cache'), 'HOME': str(self.tmp)}
        self.tree = self.tmp / 'tree'
        write(self.tree / 'lib' / 'lockless_ring_buffer.c', 'int x;\n')
        git_env = {'GIT_AUTHOR_NAME': 't', 'GIT_AUTHOR_EMAIL': 't@t',
                   'GIT_COMMITTER_NAME': 't', 'GIT_COMMITTER_EMAIL': 't@t'}
        for cmd in (['init', '-q'], ['add', '.'], ['commit', '-q', '-m', 'base']):
            subprocess.run(['git', *cmd], cwd=self.tree, env=git_env, check=True)
        self.build = self.tmp / 'build' / 'x86_64-default'
        write(self.build / '.config', 'CONFIG_KUNIT=y\n')
        self.calls = 0

    def fake_build(self, ok: bool) -> object:
        from lrb_harness import checks

        def build(*_args: object) -> checks.CheckResult:
            self.calls += 1
            return checks.CheckResult('W=1 x86_64', ok, [] if ok else ['warning: x'])
        return build

    def w1(self, ok: bool = True) -> bool:
        from unittest import mock
        from lrb_harness import checks, profiles
        with mock.patch.object(checks, '_w1_build', self.fake_build(ok)), \
                mock.patch.object(checks, 'w1_targets', lambda _tree: ['lib/x.o']):
            return checks.w1(self.tree, profiles.target('x86_64'), self.build, 2,
                             lambda _line: None, dict(self.env)).ok

    def test_w1_skips_what_passed(self) -> None:
        self.assertTrue(self.w1())
        self.assertTrue(self.w1())
        self.assertEqual(self.calls, 1)

    def test_w1_compiles_again_after_a_change(self) -> None:
        self.assertTrue(self.w1())
        write(self.tree / 'lib' / 'lockless_ring_buffer.c', 'int y;\n')  # uncommitted
        self.assertTrue(self.w1())
        write(self.build / '.config', 'CONFIG_KUNIT=y\nCONFIG_KCSAN=y\n')
        self.assertTrue(self.w1())
        self.assertEqual(self.calls, 3)

    def test_w1_never_records_a_failure(self) -> None:
        self.assertFalse(self.w1(ok=False))
        self.assertFalse(self.w1(ok=False))
        self.assertEqual(self.calls, 2)

    def test_w1_disabled(self) -> None:
        self.assertTrue(self.w1())
        self.env[resultcache.DISABLE] = '1'
        self.assertTrue(self.w1())
        self.assertEqual(self.calls, 2)

    def sparse(self) -> int:
        from unittest import mock
        from lrb_harness import checks, paths, sparse

        def run(*_args: object) -> checks.CheckResult:
            self.calls += 1
            return checks.CheckResult('sparse', True)
        with mock.patch.object(sparse, 'run', run), \
                mock.patch.object(sparse, 'targets', lambda _tree: ['lib/x.o']):
            found = sparse.check_arches(paths.repo_root(), self.tree, dict(self.env),
                                        lambda _line: None)
        self.assertTrue(all(r.ok for r in found))
        return len(found)

    def test_sparse_key_is_the_same_in_every_clone(self) -> None:
        import shutil
        from unittest import mock
        from lrb_harness import paths, profiles, sparse
        repo = paths.repo_root()
        clone = self.tmp / 'clone'
        (clone / 'tools' / 'qemu_configs').mkdir(parents=True)
        shutil.copy(repo / '.kunitconfig', clone / '.kunitconfig')
        shutil.copy(repo / 'tools' / 'qemu_configs' / 'x86_64.py',
                    clone / 'tools' / 'qemu_configs' / 'x86_64.py')
        tgt, bdir = profiles.target('x86_64'), self.tmp / 'b'
        with mock.patch.object(sparse, 'targets', lambda _tree: ['lib/x.o']):
            self.assertEqual(sparse.sparse_key(repo, self.tree, tgt, bdir),
                             sparse.sparse_key(clone, self.tree, tgt, bdir))
            (clone / '.kunitconfig').write_text('CONFIG_KUNIT=y\n')
            self.assertNotEqual(sparse.sparse_key(repo, self.tree, tgt, bdir),
                                sparse.sparse_key(clone, self.tree, tgt, bdir))

    def test_sparse_skips_what_passed(self) -> None:
        self.assertEqual(self.sparse(), 2)
        self.assertEqual(self.calls, 2)
        self.assertEqual(self.sparse(), 2)
        self.assertEqual(self.calls, 2)
        write(self.tree / 'lib' / 'lockless_ring_buffer.c', 'int y;\n')
        self.sparse()
        self.assertEqual(self.calls, 4)
