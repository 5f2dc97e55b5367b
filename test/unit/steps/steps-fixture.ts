/**
 * A plugin file with multi-step tools, aliases and tests, built from real `node -e` commands, for
 * the steps tests over real stdio.
 */

/** `["node", "-e", code, ...args]`: a command that runs this JavaScript. */
export function nodeCommand(code: string, ...args: string[]): string[] {
  return ['node', '-e', code, ...args];
}

/** Prints `text` (no newline). */
const print = (text: string): string[] => nodeCommand(`process.stdout.write(${JSON.stringify(text)})`);

/**
 * A step that meets `other` before it ends: it marks itself ready (a file beside $TRACE), waits
 * until `other` is ready too, then appends "<name> <start> <end>" to $TRACE and prints `name`.
 * Two such steps can only both finish if they run at the same time: run one after the other, the
 * first waits in vain and fails after 15 s. So "they overlapped" is proven without timing.
 */
const meeting = (name: string, other: string): string[] =>
  nodeCommand(
    `const fs=require('fs'),path=require('path'),dir=path.dirname(process.env.TRACE),s=Date.now();fs.writeFileSync(path.join(dir,'${name}.ready'),'');` +
      `const t=setInterval(()=>{if(fs.existsSync(path.join(dir,'${other}.ready'))){clearInterval(t);fs.appendFileSync(process.env.TRACE,'${name} '+s+' '+Date.now()+'\\n');process.stdout.write('${name}')}` +
      `else if(Date.now()-s>15000){process.stderr.write('${other} never ran beside ${name}');process.exit(9)}},10)`,
  );

/** Removes the meeting marks of earlier runs, then after `ms` appends "<name> <start> <end>" to $TRACE and prints `name`. */
const tracedFresh = (name: string, ms: number, marks: readonly string[]): string[] =>
  nodeCommand(
    `const fs=require('fs'),path=require('path'),dir=path.dirname(process.env.TRACE);for(const m of ${JSON.stringify(marks)})fs.rmSync(path.join(dir,m+'.ready'),{force:true});` +
      `const s=Date.now();setTimeout(()=>{fs.appendFileSync(process.env.TRACE, '${name} '+s+' '+Date.now()+'\\n');process.stdout.write('${name}')},${ms})`,
  );

/** The plugin file; `trace` and `counter` are paths the commands write to. */
export function stepsPlugin(trace: string, counter: string, pidDir: string): string {
  const env = { TRACE: trace };
  const shell = (command: string[]) => ({ type: 'shell', command, env, timeout: 20000 });
  return JSON.stringify(
    {
      name: 'steps-fixture',
      tools: [
        {
          name: 'pipeline',
          description: 'build, then lint and test together, then report',
          tags: ['execute'],
          steps: [
            { name: 'build', handler: shell(tracedFresh('build', 50, ['lint', 'test'])) },
            { name: 'lint', parallel: true, handler: shell(meeting('lint', 'test')) },
            { name: 'test', parallel: true, handler: shell(meeting('test', 'lint')) },
            { name: 'report', handler: shell(nodeCommand('process.stdout.write("report:"+process.argv[1])', '{{steps.build.stdout}}')) },
          ],
          tests: [
            { name: 'reports what build printed', expect: { outputContains: 'report:build' } },
            { name: 'a wrong expectation fails', expect: { outputContains: 'nothing like this' } },
          ],
        },
        {
          name: 'conditions',
          description: 'a failure allowed, a skipped step, a step that runs on failure',
          tags: ['execute'],
          steps: [
            { name: 'flaky', continueOnError: true, handler: shell(nodeCommand('process.exit(3)')) },
            { name: 'after-flaky', handler: shell(print('still ran')) },
            { name: 'on-exit-3', runIf: { step: 'flaky', exitCode: [3, 4] }, handler: shell(print('saw exit 3')) },
            { name: 'only-on-failure', runIf: 'failure', handler: shell(print('should not run')) },
          ],
        },
        {
          name: 'failing',
          description: 'a step fails; the cleanup still runs',
          tags: ['execute'],
          steps: [
            { name: 'breaks', handler: shell(nodeCommand('console.log("broken");process.exit(2)')) },
            { name: 'skipped', handler: shell(print('not reached')) },
            { name: 'cleanup', runIf: 'always', handler: shell(print('cleaned')) },
          ],
          tests: [{ name: 'fails, and cleans up', expect: { isError: true, outputContains: 'cleaned' } }],
        },
        {
          name: 'retrying',
          description: 'succeeds on the third attempt',
          tags: ['execute'],
          steps: [
            {
              name: 'third-time',
              retry: { attempts: 3, delayMs: 10 },
              handler: shell(nodeCommand(`const f=${JSON.stringify(counter)};const fs=require('fs');const n=(fs.existsSync(f)?+fs.readFileSync(f,'utf8'):0)+1;fs.writeFileSync(f,String(n));process.exit(n<3?1:0)`)),
            },
          ],
        },
        {
          name: 'dash-from-step',
          description: 'a step output that starts with "-" used as a whole argument',
          tags: ['execute'],
          steps: [
            { name: 'make', handler: shell(print('--output=/tmp/x')) },
            { name: 'use', handler: shell(nodeCommand('process.stdout.write(process.argv[1])', '{{steps.make.stdout}}')) },
          ],
        },
        {
          name: 'sleepers',
          description: 'two parallel steps that record their pids and sleep',
          tags: ['execute'],
          steps: [
            { name: 'one', parallel: true, handler: { type: 'shell', script: `echo $$ > ${JSON.stringify(`${pidDir}/one.pid`)}; exec sleep 100`, timeout: 60000 } },
            { name: 'two', parallel: true, handler: { type: 'shell', script: `echo $$ > ${JSON.stringify(`${pidDir}/two.pid`)}; exec sleep 100`, timeout: 60000 } },
          ],
        },
        {
          name: 'sleeper',
          description: 'records its pid and sleeps',
          tags: ['execute'],
          handler: { type: 'shell', script: `echo $$ > ${JSON.stringify(`${pidDir}/sleeper.pid`)}; exec sleep 100`, timeout: 60000 },
        },
        {
          name: 'calls-sleeper',
          description: 'a tool step calling the sleeper, within 500 ms',
          tags: ['execute'],
          timeout: 500,
          steps: [{ name: 'sleep', tool: 'sleeper' }],
        },
        {
          name: 'echo',
          description: 'prints its word',
          tags: ['read'],
          inputSchema: { type: 'object', properties: { word: { type: 'string' }, times: { type: 'integer', default: 1 } }, required: ['word'] },
          handler: { type: 'shell', command: nodeCommand('process.stdout.write(process.argv[1].repeat(+process.argv[2]))', '{{word}}', '{{times}}') },
          tests: [{ name: 'says hi', input: { word: 'hi' }, expect: { outputMatches: '^hi$', exitCode: 0 } }],
        },
        { name: 'echo-twice', alias: 'echo', defaults: { times: 2 }, description: 'prints its word twice' },
        {
          name: 'composed',
          description: 'calls echo with a step output',
          tags: ['read'],
          steps: [
            { name: 'word', handler: { type: 'shell', command: print('composed-word') } },
            { name: 'say', tool: 'echo', with: { word: '{{steps.word.stdout}}', times: 3 } },
          ],
        },
        {
          name: 'hangs',
          description: 'never ends',
          tags: ['execute'],
          handler: { type: 'shell', command: nodeCommand('setInterval(()=>{},1000)'), timeout: 60000 },
          tests: [{ name: 'is stopped at its time', expect: { isError: false }, timeoutMs: 500 }],
        },
      ],
    },
    null,
    2,
  );
}
