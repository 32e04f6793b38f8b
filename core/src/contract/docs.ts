// What each route of the contract does, in Spanish, for the API document (/api/openapi.json)
// that publishers, ad-tag integrators and ingest clients read. Typed against the contract, so
// a route added without its description does not compile.
import type { Contract } from './index.js';

export interface RouteDoc {
  /** One short sentence: what the route does. */
  summary: string;
  /** Details a caller needs: formats, limits, what an error means. */
  description?: string;
}

export type ContractDocs = { [Area in keyof Contract]: { [Name in keyof Contract[Area]]: RouteDoc } };

/** The document's section (tag) of each area. */
export const AREA_TAGS: { [Area in keyof Contract]: string } = {
  health: 'Estado',
  auth: 'Sesión',
  admin: 'Administración',
  dashboard: 'Dashboard',
  adReport: 'Ad Report y Api Explorer',
  demand: 'Demand',
  finance: 'Finance',
  publisher: 'Publishers (URL con token)',
  ingest: 'Ingesta',
  publishers: 'Revenue share',
  campaigns: 'Campañas (Meta)',
  referrers: 'Referrers',
};

const TABLE =
  'Tabla paginada en el servidor: `sort` (`clave:asc|desc`), `page`, `page_size` (hasta 500); la respuesta trae `rows`, `total_rows`, `page`, `page_count` y `totals` de todas las filas que cumplen los filtros. Con `format=csv` o `format=ndjson` devuelve todas las filas en streaming.';

export const ROUTE_DOCS: ContractDocs = {
  health: {
    check: {
      summary: 'Estado del servidor',
      description: 'Versión, hora y zona horaria de los informes (las fechas son días de esa zona). Público.',
    },
  },
  auth: {
    login: {
      summary: 'Inicia sesión',
      description:
        'Devuelve un token de sesión (JWT) para la cabecera `Authorization: Bearer`. Los intentos fallidos se limitan (429 con `Retry-After`).',
    },
    me: { summary: 'Usuario de la sesión', description: 'Email, nombre, si es administrador y cuándo expira la sesión.' },
    changePassword: {
      summary: 'Cambia la contraseña',
      description: 'Pide la actual; devuelve un token nuevo. Las sesiones emitidas antes del cambio dejan de valer.',
    },
  },
  admin: {
    listUsers: { summary: 'Lista los usuarios' },
    createUser: { summary: 'Crea un usuario', description: 'El email es único sin distinguir mayúsculas (409 si ya existe).' },
    updateUser: { summary: 'Modifica un usuario', description: 'Los campos vacíos no se cambian.' },
    deleteUser: { summary: 'Elimina un usuario', description: 'El administrador protegido no se puede eliminar.' },
    listTokens: { summary: 'Lista los tokens de publishers' },
    createToken: { summary: 'Crea el token de un publisher', description: 'Un token por publisher (409 si ya tiene uno: renuévalo).' },
    renewToken: { summary: 'Renueva el token de un publisher', description: 'El token anterior deja de valer.' },
    deleteToken: { summary: 'Elimina un token de publisher' },
  },
  dashboard: {
    rawOptions: { summary: 'Opciones de filtro', description: 'Advertisers, publishers, geos y sources conocidos.' },
    overview: {
      summary: 'Tarjetas del Dashboard',
      description: 'Revenue, margin, impresiones, clicks, CTR y TQ del rango con sus filtros, y la tendencia por día.',
    },
    aggregated: { summary: "Tabla 'Analytics' del Dashboard", description: `Una fila por día con datos. ${TABLE}` },
    deltas: { summary: 'Variación diaria', description: 'Ayer frente a anteayer, en porcentaje, por métrica.' },
    top: { summary: 'Top Zones y Top Advertisers', description: 'Los que más revenue dieron en el rango, ordenados en el servidor.' },
  },
  adReport: {
    zoneDetails: { summary: 'Resumen diario por zona', description: `Una fila por día, zona, advertiser, publisher, geo y source. ${TABLE}` },
    publisherSummary: { summary: 'Resumen por publisher', description: `Una fila por día y publisher. ${TABLE}` },
    advertiserSummary: { summary: 'Resumen por advertiser', description: `Una fila por día y advertiser. ${TABLE}` },
    explorer: { summary: 'Api Explorer: filas por zona', description: TABLE },
    revenueCards: {
      summary: 'Tarjetas del Api Explorer',
      description: 'Revenue de ayer, hoy y el mes en curso de todo el tráfico, y el del rango con sus filtros.',
    },
  },
  demand: {
    advertiserRevenue: { summary: 'Demand: revenue y margin diarios por advertiser' },
  },
  finance: {
    advertisers: {
      summary: 'Revenue mensual por advertiser',
      description: `Una columna por mes y el total; la fila TOTAL suma al céntimo. ${TABLE}`,
    },
    publishers: { summary: 'Revenue mensual por publisher', description: `Misma fila TOTAL que la tabla de advertisers. ${TABLE}` },
    margin: { summary: 'Margen mensual', description: 'Del dominio elegido o del total.' },
    domains: { summary: 'Dominios del filtro de Finance' },
  },
  publisher: {
    data: {
      summary: 'Datos de un publisher (URL con token)',
      description:
        'Las filas propias del publisher (fecha, zona, geo, impresiones, clicks, revenue del publisher), nunca el revenue ni el margen del advertiser. Token en `token`; 401 si falta o no existe. JSON de 500 filas por página; `format=csv|ndjson` devuelve todas.',
    },
  },
  ingest: {
    zoneReport: {
      summary: 'Importa informes de zona',
      description:
        'CSV con cabecera (`text/csv`), NDJSON (`application/x-ndjson`) o un array JSON (`application/json`), opcionalmente con `Content-Encoding: gzip`. Reimportar la misma clave (día, zona, advertiser, publisher, geo, source) reemplaza la fila. Las líneas rechazadas se listan con su número; las demás se guardan. Con la clave de ingesta (`X-Ingest-Key`) o una sesión de administrador.',
    },
  },
  publishers: {
    list: { summary: 'Revenue share de los publishers', description: 'Los configurados y los vistos en los datos (con el valor por defecto).' },
    set: {
      summary: 'Fija el revenue share de un publisher',
      description: 'Se aplica a las importaciones posteriores que no traen p_revenue ni margin.',
    },
  },
  campaigns: {
    imageSuggestions: { summary: 'Imágenes sugeridas para una palabra clave (Pixabay)' },
    generateCopy: { summary: 'Texto sugerido para un anuncio', description: 'Titular, cuerpo y llamada a la acción para la palabra clave.' },
    create: {
      summary: 'Crea una campaña de Meta',
      description: 'Formulario `multipart/form-data` con los campos de la campaña y la imagen. Si un paso falla en Meta, lo ya creado se deshace.',
    },
    insights: { summary: 'Campañas con sus métricas (Meta)', description: TABLE },
    list: { summary: 'Campañas creadas desde la consola', description: 'La más reciente primero.' },
  },
  referrers: {
    report: { summary: 'Referrers del rango', description: `Referrers distintos con sus visitas. ${TABLE}` },
    logs: {
      summary: 'Log de eventos de referrers',
      description: `Eventos en bruto, el más reciente primero; \`before_id\` fija las páginas mientras llegan nuevos. ${TABLE}`,
    },
    filters: { summary: 'Opciones de filtro de Referrers' },
    stream: {
      summary: 'Log de referrers en vivo (server-sent events)',
      description:
        '`text/event-stream`: `id:` el id del evento, `data:` el evento en JSON, un comentario de latido cada 15 s. Se reanuda con la cabecera `Last-Event-ID` o `lastEventId`. Acepta el token de sesión en `access_token` (EventSource no envía cabeceras).',
    },
    hit: {
      summary: 'Beacon de la etiqueta de anuncio',
      description: 'Público. Registra una visita a una zona; 204, o un GIF de 1×1 con `format=gif`.',
    },
    ingest: {
      summary: 'Importa eventos de referrers por lotes',
      description:
        'NDJSON, un evento por línea (`application/x-ndjson`, opcionalmente gzip). El lote se guarda entero o nada: una línea mal formada lo rechaza con 400 `línea N: …`. Con la clave de ingesta (`X-Ingest-Key`) o una sesión de administrador.',
    },
  },
};
