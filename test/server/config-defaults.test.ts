/** Where `serve` / `npm start` keep data and which references they seed from, when the user says nothing. */
import path from 'node:path';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { serverConfig } from '../../src/server/config.js';
import { bundledReferencesDir, packageRoot } from '../../src/package-files.js';

describe('server config defaults', () => {
  it('keeps learned references in the user data folder, never in the working tree', async () => {
    const cwd = packageRoot();
    const xdg = await serverConfig([], { XDG_DATA_HOME: '/var/lib/someone' }, cwd);
    expect(xdg.app.dataDir).toBe('/var/lib/someone/steplens');
    const home = await serverConfig([], {}, cwd);
    expect(home.app.dataDir).toBe(path.join(os.homedir(), '.local', 'share', 'steplens'));
    expect(home.app.dataDir?.startsWith(cwd)).toBe(false);
    expect((await serverConfig([], { STEPLENS_DATA: 'here' }, '/srv')).app.dataDir).toBe('/srv/here');
    expect((await serverConfig(['--data', 'there'], { STEPLENS_DATA: 'here' }, '/srv')).app.dataDir).toBe('/srv/there');
  });

  it('seeds from the bundled references unless --no-seed', async () => {
    expect((await serverConfig([], {}, '/')).app.seedDirs).toEqual([bundledReferencesDir()]);
    expect((await serverConfig(['--no-seed'], {}, '/')).app.seedDirs).toEqual([]);
  });
});
