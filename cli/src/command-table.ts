// Every command `adops` knows, as `adops --help` lists it, beside the module that registers it.
// main.ts lists them all from here and imports only the module of the command being run, so
// `adops --version` and `--help` start without any command, Ink, React, zod or the API client
// (cli/test/start-up.test.ts). Names, arguments and descriptions are written again here so the
// help needs no module: cli/test/command-table.test.ts holds them equal to what each module registers.
import type { Command } from 'commander';
import type { Cli } from './context.js';

export type Register = (program: Command, cli: Cli) => void;

export interface CommandModule {
  /** Its top-level commands, in the order it registers them. */
  commands: ReadonlyArray<{
    name: string;
    /** What follows the name in the help's list, as commander writes it ('[options] <dir>'). */
    args: string;
    description: string;
  }>;
  /** Needs every other module registered too (completion makes its script from the whole tree). */
  everything?: boolean;
  load: () => Promise<Register>;
}

/** In the order of `adops --help`. */
export const COMMANDS: readonly CommandModule[] = [
  {
    commands: [{ name: 'serve', args: '[options]', description: 'Arranca el servidor (API y web) en este proceso; Ctrl-C lo detiene' }],
    load: async () => (await import('./commands/serve.js')).registerServe,
  },
  {
    commands: [
      {
        name: 'login',
        args: '[options]',
        description:
          'Inicia sesión y guarda el token; este terminal queda como dispositivo conocido de la cuenta, al que no bloquean los intentos fallidos de otros (pide la contraseña sin mostrarla; sin terminal la lee de la primera línea de stdin)',
      },
      {
        name: 'logout',
        args: '',
        description: 'Cierra la sesión: el servidor la da por terminada (el token deja de valer) y se borra el token guardado',
      },
      { name: 'whoami', args: '[options]', description: 'Muestra el usuario de la sesión: email, nombre, si es administrador y cuándo expira' },
      {
        name: 'passwd',
        args: '',
        description: 'Cambia tu contraseña (pide la actual y la nueva sin mostrarlas; sin terminal, una por línea de stdin)',
      },
    ],
    load: async () => (await import('./commands/auth.js')).registerAuth,
  },
  {
    commands: [{ name: '2fa', args: '', description: 'Verificación en dos pasos (TOTP) de tu cuenta: estado, activarla y desactivarla' }],
    load: async () => (await import('./commands/twofactor.js')).registerTwoFactor,
  },
  {
    commands: [{ name: 'users', args: '', description: 'Usuarios (solo administradores)' }],
    load: async () => (await import('./commands/users.js')).registerUsers,
  },
  {
    commands: [{ name: 'tokens', args: '', description: 'Tokens de API de publishers (solo administradores)' }],
    load: async () => (await import('./commands/tokens.js')).registerTokens,
  },
  {
    commands: [{ name: 'publishers', args: '', description: 'Revenue share de los publishers (solo administradores)' }],
    load: async () => (await import('./commands/publishers.js')).registerPublishers,
  },
  {
    commands: [
      { name: 'report', args: '', description: 'Ad Report: resumen diario por zona, publisher o advertiser' },
      {
        name: 'explorer',
        args: '[options]',
        description: 'Api Explorer: filas por zona del rango (por defecto hoy) y revenue de ayer, hoy, mes y filtro',
      },
      {
        name: 'demand',
        args: '[options]',
        description: 'Demand: revenue y margin diarios por advertiser, en la moneda de la red (por defecto el mes actual)',
      },
      {
        name: 'finance',
        args: '[options]',
        description: 'Finance: revenue mensual por advertiser y publisher y margen mensual (por defecto desde 2025-01-01)',
      },
    ],
    load: async () => (await import('./commands/reports.js')).registerReports,
  },
  {
    commands: [
      {
        name: 'dashboard',
        args: '[options]',
        description: "Dashboard: tarjetas, variación diaria, tendencia, tops y tabla 'Analytics' (por defecto los últimos 7 días con hoy)",
      },
    ],
    load: async () => (await import('./commands/dashboard.js')).registerDashboard,
  },
  {
    commands: [
      { name: 'referrers', args: '[options]', description: 'Referrers: referrers distintos del rango (por defecto hoy), el más reciente primero' },
    ],
    load: async () => (await import('./commands/referrers.js')).registerReferrers,
  },
  {
    commands: [
      {
        name: 'tail',
        args: '[options]',
        description:
          'Log de referrers en vivo (SSE; si el flujo falla, consulta cada 5 s y vuelve al flujo en cuanto responde). q, Ctrl-C o SIGTERM terminan',
      },
    ],
    load: async () => (await import('./commands/tail.js')).registerTail,
  },
  {
    commands: [{ name: 'spam', args: '', description: 'Lista de spam de referrers (solo administradores)' }],
    load: async () => (await import('./commands/spam.js')).registerSpam,
  },
  {
    commands: [{ name: 'campaigns', args: '', description: 'Campañas de Facebook: métricas y creación' }],
    load: async () => (await import('./commands/campaigns.js')).registerCampaigns,
  },
  {
    commands: [
      {
        name: 'profit',
        args: '[options]',
        description: 'Rentabilidad: gasto en Meta frente al revenue estimado de sus visitas, por campaña, conjunto, anuncio, keyword o día',
      },
      { name: 'spend', args: '', description: 'Gasto en Meta (solo administradores)' },
      {
        name: 'rates',
        args: '',
        description: 'Tipos de cambio mensuales del gasto a la moneda de la red (ver: cualquiera; cambiar: administradores)',
      },
    ],
    load: async () => (await import('./commands/profit.js')).registerProfit,
  },
  {
    commands: [
      { name: 'import', args: '', description: 'Carga datos en el servidor (administradores o clave de ingesta)' },
      {
        name: 'seed',
        args: '[options]',
        description: 'Carga los informes de zona de demostración (90 días, los mismos que `npm start`) a través de la ingesta',
      },
    ],
    load: async () => (await import('./commands/import.js')).registerImport,
  },
  {
    commands: [
      {
        name: 'backup',
        args: '[options] <dir>',
        description: 'Copia de seguridad del servidor en marcha (entidades y almacén de datos) en DIR (admin), con sus secretos cifrados',
      },
      {
        name: 'restore',
        args: '[options] <dir>',
        description: 'Restaura una copia de adops backup en un directorio de datos, con el servidor detenido',
      },
    ],
    load: async () => (await import('./commands/backup.js')).registerBackup,
  },
  {
    commands: [
      {
        name: 'audit',
        args: '[options]',
        description: 'Registro de auditoría: cada cambio de un administrador o del sistema, el más reciente primero (solo administradores)',
      },
    ],
    load: async () => (await import('./commands/audit.js')).registerAudit,
  },
  {
    commands: [{ name: 'alerts', args: '', description: 'Alertas: lo que dispararon las reglas, las reglas y el silencio de una alerta' }],
    load: async () => (await import('./commands/alerts.js')).registerAlerts,
  },
  {
    commands: [
      {
        name: 'migrate',
        args: '[options]',
        description: 'Copia un directorio de datos embebido (lowdb + DuckDB) a PostgreSQL + ClickHouse y verifica recuentos y sumas',
      },
    ],
    load: async () => (await import('./commands/migrate.js')).registerMigrate,
  },
  {
    commands: [
      { name: 'options', args: '[options]', description: 'Lista los valores de los filtros: advertisers, publishers, geos, sources y dominios' },
    ],
    load: async () => (await import('./commands/options.js')).registerOptions,
  },
  {
    commands: [
      { name: 'metrics', args: '[options]', description: 'Qué es cada cifra: nombre, definición y decimales de cada métrica (las de la web)' },
    ],
    load: async () => (await import('./commands/metrics.js')).registerMetrics,
  },
  {
    commands: [{ name: 'completion', args: '<shell>', description: 'Imprime el script de autocompletado de la terminal (bash o zsh)' }],
    everything: true,
    load: async () => (await import('./commands/completion.js')).registerCompletion,
  },
];
